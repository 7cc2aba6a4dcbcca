"""What a base looks like, against the empty map's reference: a round disc of known size on the map.

A base (SWM, DDM: round dark plastic, one inch on one-inch squares; the generator's 0.38-0.46
squares in radius times the footprint) lies ON the map plane, so on the top-down view it is a
disc of known radius centred on its square (a Large base's on its 2 x 2 block). The figure's
body stands above the plane: the homography smears it away from the camera, over the squares
behind, as a long shape that does not stop at a circle. So each square is scored by the change
from the reference (:mod:`.reference`):

- inside the disc's core (brightness, colour and structure changed; a base hides the art);
- in the ring just outside the disc, by quarter: a base leaves at least one quarter of its ring
  unchanged (the camera's side, where no body falls), a body leaning over from a neighbour or a
  figure's shadow changes the ring too;
- the disc's edge: brightness stepping up outward across the circle where the reference had no
  such step, on its clearer half (the other half may lie under the figure's body);
- the same core for the 2 x 2 and 3 x 3 blocks the square belongs to (Large and Huge bases).

A logistic model over these features (``tools/fit_bases.py``, on generated pairs of photos --
the empty map under one camera and light, the game under another -- whose seeds the bench never
uses) gives a calibrated probability.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from ..coords import Square
from ..errors import AssistantError
from ..i18n import _
from .board import Grid
from .occupancy import MODEL_DIR
from .reference import PAD, PX, Change, Reference, align_view, compare_views, top_down

MODEL = MODEL_DIR / "bases.json"
FUSION_MODEL = MODEL_DIR / "fusion.json"
FEATURES = (
    "dark_core", "lum_core", "chroma_core", "struct_core", "change_core", "ring_least", "ring_mean", "core_minus_ring",
    "block2_core", "block3_core", "square_mean", "edge_half", "edge_share", "changed_core", "changed_block2", "changed_block3",
    "whole_block2", "whole_block3", "edge_block2", "edge_block3",
)
#: a pixel counts as changed above this :func:`change_score`
CHANGED = 1.2
CORE = 0.34  # squares: the part of a base (0.38-0.46) that is surely base whatever its size
RING = (0.54, 0.72)  # squares: just outside a base
EDGE = (0.30, 0.54)  # squares: the radii the edge's step is read between
ANGLES = 24


def _disc(radius: float) -> np.ndarray:
    r = int(np.ceil(radius))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    k = (xx * xx + yy * yy <= radius * radius).astype(np.float32)
    return k / k.sum()


def _sectors(r0: float, r1: float) -> list[np.ndarray]:
    """The ring between r0 and r1 pixels in four quarters (north, east, south, west)."""
    r = int(np.ceil(r1))
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    rad = np.hypot(xx, yy)
    ang = np.arctan2(yy, xx)
    ring = (rad >= r0) & (rad <= r1)
    out = []
    for centre in (-np.pi / 2, 0.0, np.pi / 2, np.pi):
        off = np.abs(np.angle(np.exp(1j * (ang - centre))))
        k = (ring & (off <= np.pi / 4)).astype(np.float32)
        out.append(k / k.sum())
    return out


def change_score(ch: Change) -> np.ndarray:
    """One number a pixel for how changed it is (each part capped, so one cannot swamp the rest)."""
    return np.minimum(np.abs(ch.lum) / 0.4, 2.0) + np.minimum(ch.chroma / 0.15, 2.0) + np.minimum(ch.struct, 2.0)


def square_features(ch: Change, cols: int, rows: int) -> np.ndarray:
    """The features of :data:`FEATURES`, one row a square, row by row (N, F)."""
    comb = change_score(ch)
    core = _disc(CORE * PX)
    rr, cc = np.mgrid[0:rows, 0:cols]
    ys = ((PAD + rr + 0.5) * PX).astype(int).ravel()
    xs = ((PAD + cc + 0.5) * PX).astype(int).ravel()

    def at(m: np.ndarray, k: np.ndarray) -> np.ndarray:
        return _filtered_at(m, k, ys, xs)

    dark = at(np.maximum(-ch.lum, 0.0), core)
    lum = at(np.abs(ch.lum), core)
    chroma = at(ch.chroma, core)
    struct = at(ch.struct, core)
    change = at(comb, core)
    quarters = np.stack([at(comb, k) for k in _sectors(RING[0] * PX, RING[1] * PX)], axis=1)
    ring_least, ring_mean = quarters.min(axis=1), quarters.mean(axis=1)
    changed = (comb > CHANGED).astype(np.float32)
    block2, changed2 = (_block2(m, cols, rows) for m in (comb, changed))
    block3, changed3 = (_block3(at(m, _disc(3 * CORE * PX)), cols, rows) for m in (comb, changed))
    box = np.full((PX, PX), 1.0 / (PX * PX), np.float32)
    square = at(comb, box)
    # the edge: a step in log brightness across the circle, in the photo less in the reference
    gv = cv2.GaussianBlur(ch.gray, (0, 0), 1.2)
    gr = cv2.GaussianBlur(ch.gray_ref, (0, 0), 1.2)
    edge_half, edge_share = _edge(gv, gr, xs, ys, 1)
    cy, cx = np.mgrid[0:rows + 1, 0:cols + 1]
    corner_edge = _edge(gv, gr, ((PAD + cx) * PX).ravel(), ((PAD + cy) * PX).ravel(), 2)[0].reshape(rows + 1, cols + 1)
    edge2 = np.maximum.reduce([corner_edge[:-1, :-1], corner_edge[1:, :-1], corner_edge[:-1, 1:], corner_edge[1:, 1:]]).ravel()
    edge3 = _block3(_edge(gv, gr, xs, ys, 3)[0], cols, rows)
    return np.stack([dark, lum, chroma, struct, change, ring_least, ring_mean, change - ring_least,
                     block2, block3, square, edge_half, edge_share, at(changed, core), changed2, changed3,
                     # a big base's disc changed all but wholly: no neighbour's base or body covers
                     # that much of it (a linear model needs the threshold given)
                     np.clip((changed2 - 0.8) / 0.2, 0, 1), np.clip((changed3 - 0.85) / 0.15, 0, 1), edge2, edge3], axis=1).astype(np.float32)


def _edge(gv: np.ndarray, gr: np.ndarray, xs: np.ndarray, ys: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For a base of footprint ``n`` centred on each point: the step in log brightness across
    its circle (outside less inside; in the photo less in the reference), on the clearer half of
    the circle (the other may lie under the figure's body), either way round (a dark base on
    light paper, a grey one on dark art); and the share of the circle where the step is clear."""
    t = np.linspace(0, 2 * np.pi, ANGLES, endpoint=False)
    ux, uy = np.cos(t), np.sin(t)
    h, w = gv.shape

    def ring(g: np.ndarray, r: float) -> np.ndarray:
        px_ = np.clip((xs[:, None] + r * n * PX * ux[None]).round().astype(int), 0, w - 1)
        py_ = np.clip((ys[:, None] + r * n * PX * uy[None]).round().astype(int), 0, h - 1)
        return g[py_, px_]

    step = (ring(gv, EDGE[1]) - ring(gv, EDGE[0])) - (ring(gr, EDGE[1]) - ring(gr, EDGE[0]))
    half = ANGLES // 2
    best = np.zeros(len(xs))
    for signed in (step, -step):
        csum = np.cumsum(np.concatenate([signed, signed], axis=1), axis=1)
        best = np.maximum(best, (csum[:, half:half + ANGLES] - csum[:, :ANGLES]).max(axis=1) / half)
    return best, np.maximum((step > 0.15).mean(axis=1), (step < -0.15).mean(axis=1))


#: the most pixels :func:`_filtered_at` gathers at once (the windows of a 200 x 200 map's squares
#: under a Huge base's disc would otherwise take gigabytes)
GATHER_PIXELS = 4_000_000


def _filtered_at(m: np.ndarray, k: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """``cv2.filter2D(m, CV_32F, k, borderType=BORDER_REPLICATE)[ys, xs]`` (float32), computed at
    those points only: the features are read at the squares' centres or corners, a few hundred
    points, and filtering the whole view for them with discs up to 67 px wide made
    :func:`square_features` cost 0.08 CPU-seconds a photo (0.02 so; independent seed 387). The
    same sums (to float32 rounding), the window round each point read directly, the view's edge
    replicated as filter2D does."""
    kh, kw = k.shape
    ay, ax = kh // 2, kw // 2  # filter2D's anchor: the kernel's centre
    h, w = m.shape
    if ys.size and (ys.min() < ay or xs.min() < ax or ys.max() + kh - ay > h or xs.max() + kw - ax > w):
        m = cv2.copyMakeBorder(m, ay, kh - ay, ax, kw - ax, cv2.BORDER_REPLICATE)
        ys, xs = ys + ay, xs + ax
    windows = np.lib.stride_tricks.sliding_window_view(m, (kh, kw))  # windows[y, x] starts at (y, x)
    kk = k.astype(np.float64)
    out = np.empty(ys.size, np.float64)
    step = max(1, GATHER_PIXELS // (kh * kw))
    for i in range(0, ys.size, step):
        out[i:i + step] = np.einsum("nij,ij->n", windows[ys[i:i + step] - ay, xs[i:i + step] - ax], kk)
    return out.astype(np.float32)


def _block2(m: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """Large bases: ``m`` over the disc centred on each grid corner; a square takes the best of its 4 corners."""
    cy, cx = np.mgrid[0:rows + 1, 0:cols + 1]
    h, w = m.shape
    ys, xs = ((PAD + cy) * PX).clip(0, h - 1).ravel(), ((PAD + cx) * PX).clip(0, w - 1).ravel()
    corners = _filtered_at(m, _disc(2 * CORE * PX), ys, xs).reshape(rows + 1, cols + 1)
    return np.asarray(np.maximum.reduce([corners[:-1, :-1], corners[1:, :-1], corners[:-1, 1:], corners[1:, 1:]]).ravel())


def _block3(centred: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """Huge bases: the value on the disc centred on each square (``centred``, row by row); a
    square takes the best of its 3 x 3 neighbourhood (the corner squares of a Huge block lie
    mostly outside its round base, yet they are the figure's)."""
    padded = np.pad(centred.reshape(rows, cols), 1, mode="edge")
    return np.asarray(np.max([padded[dy:dy + rows, dx:dx + cols] for dy in range(3) for dx in range(3)], axis=0).ravel())


def _shipped_model(path: Path, key: str, names: tuple[str, ...], missing: str, other: str) -> dict[str, Any]:
    """A shipped model's JSON, checked to be fitted on ``names`` (its ``key`` list); the messages
    name the file."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # pragma: no cover - the wheel ships it
        raise AssistantError(missing.format(MODEL=path)) from None
    if tuple(meta.get(key, ())) != names:  # pragma: no cover - refitted with the features
        raise AssistantError(other.format(MODEL=path))
    return dict(meta)


@lru_cache(maxsize=1)
def _model() -> dict[str, Any]:
    return _shipped_model(MODEL, "features", FEATURES, _("the base model {MODEL} is missing or damaged; reinstall the package"),
                          _("the base model {MODEL} was fitted on other features; run tools/fit_bases.py"))


def logits(x: np.ndarray, meta: dict[str, Any]) -> np.ndarray:
    """The model's logit for feature rows ``x`` (standardised, then linear, plus the squared terms)."""
    z = (x - np.asarray(meta["mean"], np.float32)) / np.asarray(meta["std"], np.float32)
    z = np.concatenate([z, z * z], axis=1) if meta.get("squares") else z
    return np.asarray(z @ np.asarray(meta["weights"], np.float32) + float(meta["bias"]), np.float64)


def base_probabilities(ch: Change, cols: int, rows: int) -> dict[str, float]:
    """P(a base stands on the square), per square name, row by row."""
    x = square_features(ch, cols, rows)
    p = 1.0 / (1.0 + np.exp(-np.clip(logits(x, _model()), -30, 30)))
    return {Square(c, r).name: float(p[r * cols + c]) for r in range(rows) for c in range(cols)}


#: what the fusion model reads a square by: the learned classifier's logit (the photo alone), the
#: base model's (the photo against the reference), their product (both sure the same way, or
#: at odds), and the comparison's strongest features (a dark change in the disc's core, the
#: change there, the least changed quarter of the ring round it, the base's edge)
FUSION_INPUTS = ("classifier_logit", "reference_logit", "product", "dark_core", "change_core", "ring_least", "edge_half")
#: logits are clipped here: a probability of 1 - 1e-9 says no more than one of 1 - 5e-5
LOGIT_CAP = 10.0


def fusion_inputs(p_classifier: np.ndarray, x: np.ndarray, reference_logit: np.ndarray) -> np.ndarray:
    """The rows of :data:`FUSION_INPUTS` (N, 7) from the classifier's probabilities (N,), the
    base features of :data:`FEATURES` (N, F) and the base model's logits (N,)."""
    p = np.clip(np.asarray(p_classifier, np.float64), 1e-9, 1 - 1e-9)
    lc = np.clip(np.log(p / (1 - p)), -LOGIT_CAP, LOGIT_CAP)
    lr = np.clip(np.asarray(reference_logit, np.float64), -LOGIT_CAP, LOGIT_CAP)
    f = np.asarray(x, np.float64)
    pick = [FEATURES.index(k) for k in FUSION_INPUTS[3:]]
    return np.column_stack([lc, lr, lc * lr / LOGIT_CAP, f[:, pick]])


def fusion_logits(inputs: np.ndarray, meta: dict[str, Any]) -> np.ndarray:
    """The fusion model's logit for rows of :data:`FUSION_INPUTS` (standardised, then linear)."""
    z = (np.asarray(inputs, np.float64) - np.asarray(meta["mean"], np.float64)) / np.asarray(meta["std"], np.float64)
    return np.asarray(z @ np.asarray(meta["weights"], np.float64) + float(meta["bias"]), np.float64)


@lru_cache(maxsize=1)
def _fusion_model() -> dict[str, Any]:
    return _shipped_model(FUSION_MODEL, "inputs", FUSION_INPUTS, _("the fusion model {MODEL} is missing or damaged; reinstall the package"),
                          _("the fusion model {MODEL} was fitted on other inputs; run tools/fit_fusion.py"))


def fused_probabilities(image: np.ndarray, grid: Grid, reference: Reference, classifier: dict[str, float],
                        view: np.ndarray | None = None, aligned: bool = False) -> dict[str, float]:
    """P(a base stands on the square), per square name, from BOTH readings: the learned
    classifier's probabilities (``classifier``, per square name: the photo alone) and the photo
    compared with the empty map's reference (:func:`reference_probabilities`'s features and
    logit), fused by a logistic model fitted on generated pairs (``tools/fit_fusion.py``).
    ``view``: the photo's :func:`.reference.top_down` where already made; ``aligned``: already
    aligned onto the reference (:func:`.reference.align_view`), not to be aligned again. At most
    :data:`INTACT_MOST` where the square's base core shows the reference's art intact (R112)."""
    fused = fused_and_compared(image, grid, reference, classifier, view, aligned)
    return with_art_intact(fused.scores, fused.intact)


class Fused(NamedTuple):
    """:func:`fused_and_compared`'s answer: the fused P(a base) per square and the comparison's
    own, as the models read them, and the squares whose base core shows the reference's art
    intact (R112: no base there, :func:`with_art_intact`)."""

    scores: dict[str, float]
    compared: dict[str, float]
    intact: frozenset[str]
    #: the squares whose change shows no base's shape, the fused reading there no surer than the
    #: learned classifier's (R127, :func:`shapeless_change`)
    shapeless: frozenset[str] = frozenset()


def fused_and_compared(image: np.ndarray, grid: Grid, reference: Reference, classifier: dict[str, float],
                       view: np.ndarray | None = None, aligned: bool = False) -> Fused:
    """The fused P(a base) per square as the fusion model reads it, the comparison's own (the
    base model's, :func:`reference_probabilities`, on the same features: no more work), and the
    squares whose base core shows the reference's art intact (:func:`art_intact`, reading R112)."""
    cols, rows = reference.cols, reference.rows
    seen = top_down(image, grid, cols, rows) if view is None else view
    if not aligned:
        seen = align_view(seen, reference.view)
    x = square_features(compare_views(seen, reference, align=False), cols, rows)
    names = [Square(c, r).name for r in range(rows) for c in range(cols)]
    compared = logits(x, _model())
    alone = np.array([classifier[n] for n in names])
    inputs = fusion_inputs(alone, x, compared)
    p = 1.0 / (1.0 + np.exp(-np.clip(fusion_logits(inputs, _fusion_model()), -30, 30)))
    q = 1.0 / (1.0 + np.exp(-np.clip(compared, -30, 30)))
    hidden = hidden_art(seen, reference.view, cols, rows)
    # a change with neither a base's edge nor the art hidden under the core is no base's: the
    # comparison adds nothing to what the classifier reads there (R127)
    shapeless = shapeless_change(x[:, FEATURES.index("edge_half")], hidden) & (p > alone)
    p = np.where(shapeless, alone, p)
    return Fused({n: float(v) for n, v in zip(names, p, strict=True)}, {n: float(v) for n, v in zip(names, q, strict=True)},
                 frozenset(n for n, v in zip(names, hidden, strict=True) if v < ART_INTACT),
                 frozenset(n for n, v in zip(names, shapeless, strict=True) if v))


# --------------------------------------------------------------------------- a change with no base's shape (R127)

#: :data:`FEATURES`' ``edge_half`` (the step in log brightness across a base's circle, photo less
#: reference, on its clearer half) below which the change shows no base's edge. On the independent
#: renderer's fair diagnosis photos a base's square reads 0.3-1.3 (s0489's E4 0.33, s0456's A9
#: 0.76); a figure's shadow or body smeared over the square behind, 0.09-0.11 (s0489's D3, s0456's A11)
NO_BASE_EDGE = 0.15
#: :func:`hidden_art` below which little of the art under a base's core is hidden (a base hides it
#: all: :data:`ART_INTACT` is the least a base's square read, 0.082, 1 % of them below 0.138)
LITTLE_HIDDEN = 0.15


def shapeless_change(edge_half: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """Per square (row by row), whether its change from the reference shows no base's shape: no
    step across a base's circle (``edge_half`` below :data:`NO_BASE_EDGE`) and little of the art
    under its core hidden (``hidden`` below :data:`LITTLE_HIDDEN`). A base is a disc with an edge
    that hides the art under it; a shadow, a body leaning over from a neighbour, or a glare changes
    the square's light and colour -- which the comparison reads as change -- but keeps the art and
    draws no circle.

    >>> shapeless_change(np.array([0.09, 0.09, 0.4, 0.11]), np.array([0.05, 0.3, 0.05, 0.126])).tolist()
    [True, False, False, True]
    """
    flags: np.ndarray = (edge_half < NO_BASE_EDGE) & (hidden < LITTLE_HIDDEN)
    return flags


# --------------------------------------------------------------------------- the art intact where a base would hide it (R112)

#: :func:`hidden_art` of a square's base core below which the core shows the reference's own art,
#: within :data:`SHIFT` pixels, all over, and no base stands there: a base hides the art under its
#: core whatever it looks like. On 110 of the independent renderer's diagnosis photos with a fair
#: reference (of 341-490, not the 17 whose empty map shows other art) the least a base's square
#: read was 0.082 (99 % of them 0.138 or more); 14,891 of 16,482 bare squares read below 0.05, among
#: them 589 of the 887 the fused reading read as bases (0.03: 430; it made s0455 and s0408 worse, the
#: placement taking a Large figure onto its neighbours' bodies)
ART_INTACT = 0.05
#: the most P(a base) a square whose art is intact keeps (either reading: fused or compared)
INTACT_MOST = 0.05


def art_intact(view: np.ndarray, ref_view: np.ndarray, cols: int, rows: int) -> frozenset[str]:
    """The squares whose base core (radius :data:`CORE`) shows the reference's art within
    :data:`SHIFT` pixels all over, both ways (:func:`hidden_art` below :data:`ART_INTACT`): ``view`` is
    the photo's top-down view aligned onto ``ref_view`` (:func:`.reference.align_view`).

    The fused reading's comparison reads fine print compared a pixel off as changed (a lava
    map's glowing cracks, a grid fitted a pixel or two off, the two cameras' own blur), and the
    learned classifier reads the same art as bases: together they read bare squares as bases.
    Where every pixel of the core is one the reference shows within two pixels, the art is there
    and no base hides it -- the one thing a base on the map cannot fail to do.
    """
    change = hidden_art(view, ref_view, cols, rows)
    return frozenset(Square(c, r).name for r in range(rows) for c in range(cols) if change[r * cols + c] < ART_INTACT)


def hidden_art(view: np.ndarray, ref_view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """How much each square's base core differs from the reference's art either way, row by row:
    the larger of :func:`tolerant_change` (the photo's pixels the reference does not show within
    :data:`SHIFT` pixels: something new) and the same the other way round (the reference's pixels
    the photo does not show: art hidden). The photo's pixels alone are not enough: a flat grey
    base on grainy grey stone is, pixel by pixel, a grey the grain shows somewhere within two
    pixels (independent diagnosis photo s0368: a Medium base on flagstones read 0.028), but the
    grain's light and dark specks are gone under it."""
    lv, lr = _log_pair(view, ref_view)
    return np.maximum(_at_cores(_outside_range(lv, lr), cols, rows), _at_cores(_outside_range(lr, lv), cols, rows))


def with_art_intact(scores: dict[str, float], intact: Collection[str]) -> dict[str, float]:
    """``scores`` with each square of ``intact`` at most :data:`INTACT_MOST` (R112).

    >>> with_art_intact({"A1": 0.97, "B1": 0.02, "C1": 0.9}, {"A1", "B1"})
    {'A1': 0.05, 'B1': 0.02, 'C1': 0.9}
    """
    return {sq: min(v, INTACT_MOST) if sq in intact else v for sq, v in scores.items()}


def reference_probabilities(image: np.ndarray, grid: Grid, reference: Reference) -> dict[str, float]:
    """P(a base stands on the square), per square name: the photo rectified onto the empty map's
    reference, compared with it, and each square's change scored for the shape of a base."""
    view = top_down(image, grid, reference.cols, reference.rows)
    return base_probabilities(compare_views(view, reference), reference.cols, reference.rows)


# --------------------------------------------------------------------------- the base's rim, photo alone

#: squares: the radii a base's rim is looked for at, times its footprint (a 1-inch base on 1-inch
#: squares is 0.47; bases a little smaller, and the grid's few pixels off, need the rest)
RIM_RADII = (0.40, 0.45, 0.50)
#: squares: how far from the square's centre the rim's centre may lie (a figure is not always
#: placed dead centre; from a tilted camera the base's top, 3.5 mm up, is seen shifted away)
RIM_SHIFTS = (-0.15, 0.0, 0.15)
RIM_ANGLES = 32
#: :func:`rim_strength` below which a square shows no base's rim. Measured on the independent
#: renderer's diagnosis photos (seeds 341-351, the 9 answered: 1,500 squares): every one of the
#: 64 squares of a 1 x 1 base read 0.093 or more; of the 62 empty squares the classifier read as
#: bases (rock crack lines, dark printed discs, the map's edge) 27 read less
RIM_MIN = 0.08


def rim_strength(view: np.ndarray, cols: int, rows: int, n: int = 1) -> np.ndarray:
    """How clearly a round base's rim shows round each square (n = 1) or each inner grid corner
    (n = 2: a Large base's centre), row by row: the mean step in log brightness across a circle
    of a base's radius (:data:`RIM_RADII`, times ``n``), dark inside or light inside, on the
    circle's clearer half (the other half may lie under the figure's body), the best of the
    centres :data:`RIM_SHIFTS` round the square's; times the share of the edges' strength on
    that half circle that runs along it (1: a clean circle; crack lines crossing it lower it). A base is round plastic of known size: its
    edge is a circle all the way round its clearer side; printed art's dark patches and crack
    lines cross the circle here and there, which averages out over half a circle.

    ``view``: a :func:`.reference.top_down` of the photo (uint8 BGR, ``PX`` a square)."""
    g = np.log(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32) + 8.0)
    g = cv2.GaussianBlur(g, (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = np.hypot(gx, gy)
    t = np.linspace(0, 2 * np.pi, RIM_ANGLES, endpoint=False)
    ux, uy = np.cos(t)[None], np.sin(t)[None]
    if n == 1:
        rr, cc = np.mgrid[0:rows, 0:cols]
        ys, xs = ((PAD + rr + 0.5) * PX).ravel(), ((PAD + cc + 0.5) * PX).ravel()
    else:  # a Large base's centre is a grid corner: the inner ones
        rr, cc = np.mgrid[1:rows, 1:cols]
        ys, xs = ((PAD + rr) * PX).ravel().astype(float), ((PAD + cc) * PX).ravel().astype(float)
    h, w = g.shape
    half = RIM_ANGLES // 2
    best = np.zeros(len(xs))
    row = np.arange(len(xs))
    for dx in RIM_SHIFTS:
        for dy in RIM_SHIFTS:
            for r in RIM_RADII:
                px_ = np.clip(np.round(xs[:, None] + (dx + r * n * ux) * PX).astype(int), 0, w - 1)
                py_ = np.clip(np.round(ys[:, None] + (dy + r * n * uy) * PX).astype(int), 0, h - 1)
                radial = gx[py_, px_] * ux + gy[py_, px_] * uy
                cm = np.cumsum(np.tile(mag[py_, px_], 2), axis=1)
                energy = cm[:, half:half + RIM_ANGLES] - cm[:, :RIM_ANGLES] + 1e-3 * half
                cs = np.cumsum(np.tile(radial, 2), axis=1)
                step = cs[:, half:half + RIM_ANGLES] - cs[:, :RIM_ANGLES]
                # dark inside, then light inside: the half circles' steps of the negated edges are these
                # negated, to the bit (a sum's sign flips without rounding), so one running sum serves
                # both, the clearest light-inside half the first with the least step (round 16 of issue 28)
                for k, flip in ((step.argmax(axis=1), 1.0), (step.argmin(axis=1), -1.0)):
                    along = flip * step[row, k]
                    # the step times the share of the edges' strength that runs along the circle
                    best = np.maximum(best, along / half * np.clip(along / energy[row, k], 0.0, 1.0))
    return best


def square_rims(view: np.ndarray, cols: int, rows: int, large: bool, rims2: np.ndarray | None = None,
                rims1: np.ndarray | None = None) -> dict[str, float]:
    """:func:`rim_strength` per square name; with ``large`` (the roster has Large figures) a
    square takes the clearest of its own rim and a Large base's rim round any of its corners
    (``rims2``, ``rims1``: :func:`rim_strength` with n = 2 and n = 1 where already measured)."""
    rim = (rim_strength(view, cols, rows, 1) if rims1 is None else rims1).reshape(rows, cols)
    if large and cols > 1 and rows > 1:
        inner = (rim_strength(view, cols, rows, 2) if rims2 is None else rims2).reshape(rows - 1, cols - 1)
        corner = np.zeros((rows + 1, cols + 1))
        corner[1:-1, 1:-1] = inner
        rim = np.maximum(rim, np.maximum.reduce([corner[:-1, :-1], corner[1:, :-1], corner[:-1, 1:], corner[1:, 1:]]))
    return {Square(c, r).name: float(rim[r, c]) for r in range(rows) for c in range(cols)}


def large_rims(view: np.ndarray, cols: int, rows: int, rims2: np.ndarray | None = None) -> dict[str, float]:
    """:func:`rim_strength` of a Large base round the centre of each 2 x 2 block, by the block's
    north-west square's name (what :func:`.placement.place` reads as ``large_rims``); ``rims2``:
    :func:`rim_strength` with n = 2 where already measured (:func:`rim_check` needs it too)."""
    if cols < 2 or rows < 2:
        return {}
    rim = (rim_strength(view, cols, rows, 2) if rims2 is None else rims2).reshape(rows - 1, cols - 1)
    return {Square(c, r).name: float(rim[r, c]) for r in range(rows - 1) for c in range(cols - 1)}


#: the most a square without a base's rim (:data:`RIM_MIN`) is read as a base: doubtful, so the
#: roster's count settles it and it is listed, never read as surely a base on texture alone
NO_RIM_CAP = 0.6


def without_rim(scores: dict[str, float], rims: dict[str, float]) -> dict[str, float]:
    """``scores`` with each square that shows no base's rim capped at :data:`NO_RIM_CAP`: read as
    a base on texture alone it is doubtful, the more so the fainter its rim.

    >>> without_rim({"A1": 0.99, "B1": 0.99, "C1": 0.2}, {"A1": 0.3, "B1": 0.0, "C1": 0.0})
    {'A1': 0.99, 'B1': 0.5, 'C1': 0.2}
    """
    out = {}
    for sq, p in scores.items():
        r = rims.get(sq, 1.0)
        out[sq] = p if r >= RIM_MIN else min(p, 0.5 + (NO_RIM_CAP - 0.5) * r / RIM_MIN)
    return out


def rim_check(scores: dict[str, float], view: np.ndarray, cols: int, rows: int, large: bool,
              rims2: np.ndarray | None = None, not_art: Collection[str] = (),
              rims1: np.ndarray | None = None) -> tuple[dict[str, float], frozenset[str]]:
    """``scores`` (P(a base), per square name) with the squares that show no base's rim capped
    (:func:`without_rim`), and the set of those squares. With ``large`` (the roster has Large
    figures) a 2 x 2 block read as occupied on three squares or more counts as a Large base's
    rim whatever the circles show: a Large creature's body hides most of its base's rim.
    ``rims2``, ``rims1``: :func:`rim_strength` with n = 2 and n = 1 where already measured. ``not_art``: squares the
    empty-map reference shows are no printed art (both readings sure of a base there): the rim
    check is there to tell art read as a base, so they are not capped (reading R87 in docs/readings.md)."""
    rims = square_rims(view, cols, rows, large, rims2, rims1)
    rims.update({sq: max(rims[sq], RIM_MIN) for sq in not_art if sq in rims})
    if large:
        for c in range(cols - 1):
            for r in range(rows - 1):
                block = [Square(c + dc, r + dr).name for dc in range(2) for dr in range(2)]
                if sum(scores[sq] >= 0.5 for sq in block) >= 3:
                    rims.update({sq: max(rims[sq], RIM_MIN) for sq in block})
    return without_rim(scores, rims), frozenset(sq for sq, v in rims.items() if v < RIM_MIN)


# --------------------------------------------------------------------------- a second look, where the reading sees bases everywhere

#: pixels of the top-down view (:data:`.reference.PX` a square) a reference's art may lie off the
#: photo's and still count as unchanged: each grid is found to within a pixel or two, and fine
#: print (a star field's single-pixel stars) compared a pixel off reads as changed everywhere
SHIFT = 2
#: :func:`tolerant_change` at which a square reads as even odds of holding a base, and the change
#: over which those odds grow e-fold. Measured on the independent renderer's diagnosis photos with
#: the reference (seeds 371-394): a base's core changed 0.06-0.8 (all but two of them 0.15 or
#: more), bare art within :data:`SHIFT` of the reference 0.0-0.1 on paper, tiles and carpets
SECOND_AT = 0.15
SECOND_SCALE = 0.03
#: a second look is taken only when it is decisive: it reads at most this many times the squares
#: the roster's bases cover as changed (at least :data:`SECOND_AT`); more, and it cannot tell
#: bases from the floor either (a star field's nebula under another light)
DECISIVE = 2.0


def tolerant_change(view: np.ndarray, ref_view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """How much each square's base core (radius :data:`CORE`) changed from ``ref_view``, row by
    row: each pixel's log colour against the range the reference shows within :data:`SHIFT`
    pixels of it -- how far it lies above the brightest or below the darkest there, by channel,
    after the photo's gain per channel (its median log ratio) is taken off. Art a pixel or two
    off reads as unchanged; a base hides the art whatever it looks like (a grey disc over the
    stars, a dark one over a red carpet)."""
    lv, lr = _log_pair(view, ref_view)
    return _at_cores(_outside_range(lv, lr), cols, rows)


def _log_pair(view: np.ndarray, ref_view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both views' log colour, the photo's gain per channel (its median log ratio) taken off."""
    lv = np.log(view.astype(np.float32) + 8.0)
    lr = np.log(ref_view.astype(np.float32) + 8.0)
    return lv - np.median((lv - lr).reshape(-1, 3), axis=0), lr


def _outside_range(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How far each pixel of ``a`` (log colour) lies outside the range ``b`` shows within
    :data:`SHIFT` pixels of it, above the brightest or below the darkest, by channel, averaged."""
    k = np.ones((2 * SHIFT + 1, 2 * SHIFT + 1), np.uint8)
    off: np.ndarray = (np.maximum(a - cv2.dilate(b, k), 0.0) + np.maximum(cv2.erode(b, k) - a, 0.0)).mean(axis=2)
    return off


def _at_cores(per_pixel: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """``per_pixel`` averaged over each square's base core (radius :data:`CORE`), row by row."""
    rr, cc = np.mgrid[0:rows, 0:cols]
    ys = ((PAD + rr + 0.5) * PX).astype(int).ravel()
    xs = ((PAD + cc + 0.5) * PX).astype(int).ravel()
    return _filtered_at(per_pixel.astype(np.float32), _disc(CORE * PX), ys, xs)


def own_reference(view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """A reference made from the photo itself: every square of the view replaced by the median,
    pixel by pixel, of all the map's squares. On art printed square by square (tiles, a carpet's
    repeating pattern) it is the empty map; on other art it is a blur, and :func:`second_reading`
    finds it no help (not decisive)."""
    inner = view[PAD * PX:(PAD + rows) * PX, PAD * PX:(PAD + cols) * PX]
    cells = inner.reshape(rows, PX, cols, PX, 3).transpose(0, 2, 1, 3, 4).reshape(rows * cols, PX, PX, 3)
    med = np.median(cells, axis=0).astype(np.uint8)
    return np.tile(med, (rows + 2 * PAD, cols + 2 * PAD, 1))


def second_reading(view: np.ndarray, ref_view: np.ndarray | None, cols: int, rows: int, roster_squares: int,
                   aligned: bool = False) -> dict[str, float] | None:
    """P(a base stands on the square), per square name, from :func:`hidden_art` against the empty
    map's reference view (``ref_view``: the art hidden or something new, R145) or, without one,
    :func:`tolerant_change` against :func:`own_reference` (a blur of the art: only what is new); None
    where it is not decisive (:data:`DECISIVE`). ``aligned``: ``view`` is already aligned onto
    ``ref_view`` (:func:`.reference.align_view`; the fused reading aligned it)."""
    if ref_view is None:
        change = tolerant_change(view, own_reference(view, cols, rows), cols, rows)
    else:
        # both ways, as R112 reads the art intact: the art a base hides counts as much as what it
        # adds -- a dark base on dark, speckled art adds few pixels the art does not show nearby,
        # but the specks are gone under it (reading R145)
        change = hidden_art(view if aligned else align_view(view, ref_view), ref_view, cols, rows)
    if int((change >= SECOND_AT).sum()) > DECISIVE * max(1, roster_squares):
        return None
    p = 1.0 / (1.0 + np.exp(-np.clip((change - SECOND_AT) / SECOND_SCALE, -30, 30)))
    return {Square(c, r).name: float(p[r * cols + c]) for r in range(rows) for c in range(cols)}


# --------------------------------------------------------------------------- a base's colour: neutral plastic on colourful art

#: how colourful a pixel is: (max - min) / (max + NEUTRAL_DARK) of its channels, after a blur of
#: :data:`NEUTRAL_BLUR` px; the offset keeps a near-black pixel's JPEG noise from reading as colour
NEUTRAL_DARK = 12.0
NEUTRAL_BLUR = 1.5
#: the colourfulness below which a pixel reads as neutral (grey, black or white plastic), tried
#: from the strictest: a photo's white balance tints a grey base (a red or blue gain of 0.82-1.15
#: makes it read 0.1-0.25), so the least that finds the roster's bases is taken
NEUTRAL_AT = (0.10, 0.12, 0.15, 0.20, 0.25, 0.30)
#: a neutral reading is looked for by colour alone on art this colourful (the median pixel of the
#: map): on grey stone, plain paper or a star field a grey base is no different in colour from the floor
COLOURFUL = 0.3
#: art whose median pixel's brightest channel is at most this (of 255, single-pixel stars filtered
#: off) is near-black: a base is read there by being neutral and lighter, by :data:`LIGHTER`, than
#: the art's darkest quarter. Measured on the diagnosis photos: star fields 27-30, lava 48-57
DARK_FLOOR = 40
LIGHTER = 20
#: art between near-black and :data:`COLOURFUL` whose median pixel's brightest channel is at most
#: this is dim (a dark lava floor with thin bright veins: median 53, colourfulness 0.25): a base
#: is read there by being both neutral and lighter, by :data:`DIM_LIGHTER`, than the art's darkest
#: quarter -- grey plastic on dark brown (reading R108); brighter grey stone, paper or wood stays
#: unread (a grey base is the floor's colour). Only where the first reading saw bases nearly
#: everywhere and placed nothing: a rock only 10 darker tells a base less surely than colour or
#: a black sky does, and a first reading that still names bases reads such art better (s0379)
DIM_FLOOR = 80
DIM_LIGHTER = 10
#: on near-black art, a base's plastic is also read where it is only :data:`DIM_LIGHTER` lighter
#: than the sky's darkest quarter, if it is smooth there: the grey (of 255) varies by at most
#: :data:`SMOOTH_GREY` (standard deviation) over :data:`SMOOTH_PX` px round the pixel. A dark grey
#: base on a black sky is only 10-18 lighter (diagnosis photos s0408, s0465, s0495: 28-35 on a sky
#: whose darkest quarter is 10-19), but its moulded top is even, where the sky is speckled with
#: stars and nebulae that the median filter leaves ragged (reading R143)
SMOOTH_GREY = 4.0
SMOOTH_PX = 5
#: the share of the roster's squares a threshold must find (squares whose base core is at least
#: half neutral) to be taken: a figure's body hides part of some bases
NEUTRAL_FOUND = 0.75
#: a square whose base core (radius :data:`CORE`) is this share neutral is even odds of a base;
#: the odds grow e-fold every :data:`NEUTRAL_SCALE` more
NEUTRAL_HALF = 0.5
NEUTRAL_SCALE = 0.08


def neutral_shares(view: np.ndarray, cols: int, rows: int, dim_art: bool = False
                   ) -> tuple[dict[float, np.ndarray], bool, dict[float, np.ndarray]]:
    """For each threshold of :data:`NEUTRAL_AT`, the share of each square's base core (radius
    :data:`CORE`) whose pixels look like a base's plastic, row by row: neutral below the
    threshold on colourful art (its median pixel's colourfulness at least :data:`COLOURFUL`);
    on near-black art (a star field, a night sky: its median pixel's brightest channel at most
    :data:`DARK_FLOOR` once single-pixel stars are filtered off) neutral and lighter by
    :data:`LIGHTER` than the art's darkest quarter (grey plastic on black); with ``dim_art``, on
    dim art (at most :data:`DIM_FLOOR`) neutral and lighter by :data:`DIM_LIGHTER`. Empty on
    other art (grey stone, paper, wood: a grey base is the floor's colour). With them, whether the
    art was read as dim (the weakest of the three: a rock only 10 darker than a base), and the
    shares with a base's even top counted too (reading R143): on near-black art, a pixel neutral,
    lighter by only :data:`DIM_LIGHTER` and smooth (:func:`_local_spread`) -- a dark grey base on a
    sky speckled with stars; elsewhere the shares themselves."""
    colour = _colourfulness(view)
    inner = (slice(PAD * PX, (PAD + rows) * PX), slice(PAD * PX, (PAD + cols) * PX))
    like = np.ones(colour.shape, bool)
    even: np.ndarray | None = None  # near-black art: the pixels like a base's plastic, its even top counted (R143)
    dim = False
    if float(np.median(colour[inner])) < COLOURFUL:
        light = cv2.medianBlur(view, 5).max(axis=2)  # the stars filtered off
        floor = float(np.median(light[inner]))
        if floor > (DIM_FLOOR if dim_art else DARK_FLOOR):
            return {}, False, {}
        dim = floor > DARK_FLOOR
        darkest = float(np.percentile(light[inner], 25))
        like = light > darkest + (LIGHTER if floor <= DARK_FLOOR else DIM_LIGHTER)
        if not dim:
            # a dark grey base a little lighter than the black sky: its even top tells it (R143)
            even = like | ((light > darkest + DIM_LIGHTER) & (_local_spread(view) <= SMOOTH_GREY))
    at = _core_pixels(cols, rows)
    core = colour[at]
    shares = {t: np.asarray(((core < t) & like[at]).mean(axis=1)) for t in NEUTRAL_AT}
    if even is None:
        return shares, dim, shares
    return shares, dim, {t: np.asarray(((core < t) & even[at]).mean(axis=1)) for t in NEUTRAL_AT}


def _local_spread(view: np.ndarray) -> np.ndarray:
    """Each pixel's grey's standard deviation over the :data:`SMOOTH_PX` square round it: low on
    moulded plastic, high where stars, veins or printed texture speckle the art (reading R143)."""
    g = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(g, (SMOOTH_PX, SMOOTH_PX))
    square = cv2.blur(g * g, (SMOOTH_PX, SMOOTH_PX))
    return np.asarray(np.sqrt(np.maximum(square - mean * mean, 0.0)))


def _colourfulness(view: np.ndarray, exact: bool = True) -> np.ndarray:
    """Each pixel's colourfulness, (max - min) / (max + :data:`NEUTRAL_DARK`) of its channels after
    a blur of :data:`NEUTRAL_BLUR` px: 0 for grey, black or white, towards 1 for a saturated colour.
    ``exact``: blurred in floating point (the neutral reading's thresholds were measured so); else
    in 8 bits, at most 0.03 off on the darkest pixels for an eighth of the CPU (0.004 s a photo)."""
    if exact:
        v = cv2.GaussianBlur(view.astype(np.float32), (0, 0), NEUTRAL_BLUR)
        hi, lo = v.max(axis=2), v.min(axis=2)
    else:
        b = cv2.GaussianBlur(view, (0, 0), NEUTRAL_BLUR)
        hi = cv2.max(cv2.max(b[..., 0], b[..., 1]), b[..., 2]).astype(np.float32)
        lo = cv2.min(cv2.min(b[..., 0], b[..., 1]), b[..., 2]).astype(np.float32)
    colour: np.ndarray = (hi - lo) / (hi + NEUTRAL_DARK)
    return colour


def _core_pixels(cols: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The view's pixels of each square's base core (radius :data:`CORE`), one row of indices a
    square, row by row: read directly (the view's PAD keeps every core inside it), as a filter
    over the whole view for each threshold cost 0.09 CPU-seconds a photo."""
    rr, cc = np.mgrid[0:rows, 0:cols]
    ys = ((PAD + rr + 0.5) * PX).astype(int).ravel()
    xs = ((PAD + cc + 0.5) * PX).astype(int).ravel()
    disc = _disc(CORE * PX)
    dy, dx = np.nonzero(disc)
    r = disc.shape[0] // 2
    return ys[:, None] + (dy - r)[None], xs[:, None] + (dx - r)[None]


#: the share of a square's base core whose colourfulness is read as its plastic's: a figure's body
#: (painted, any colour) and a marker's sticker cover part of a base's top, the plastic shows round
#: them, so the base core's least colourful quarter is the plastic's colour
PLASTIC_PART = 0.25


def plastic_colourfulness(view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """How colourful each square's base core is where it is least so (its :data:`PLASTIC_PART`
    quantile of :func:`_colourfulness`), row by row: a base's grey or black plastic reads low
    whatever the body over it, a disc of dark colour printed on the map reads its colour all over.
    Under the photo's white balance a grey base reads a little colourful too, so the value is
    compared with the roster's own bases' on the same photo (:func:`.placement.place`, R123).

    ``view``: a :func:`.reference.top_down` of the photo (uint8 BGR, ``PX`` a square)."""
    core = _colourfulness(view, exact=False)[_core_pixels(cols, rows)]
    k = int(PLASTIC_PART * (core.shape[1] - 1))
    return np.asarray(np.partition(core, k, axis=1)[:, k])


#: a Large base (radius 0.84 squares) seen from above: its figure's body covers the middle, and
#: the band of its top just inside its edge, these radii (squares) from the block's centre, shows
#: the moulded plastic all round the body (reading R324; diagnosis photo s0669: 0.65-0.85)
LARGE_BAND = (0.65, 0.85)
#: the directions round a block's centre the band is read in
BAND_ANGLES = 48
#: the band's grey varies by at most this (standard deviation of 255 over :data:`SMOOTH_PX` px,
#: :func:`_local_spread`, averaged across the band) where it is moulded plastic; a lava floor's
#: veins, a carpet's weave or printed cracks speckle it more (s0669: a Large base's band 3.5 at
#: the median direction, the lava block the classifier took 12)
BAND_SMOOTH = 6.0


def large_bands(view: np.ndarray, cols: int, rows: int) -> dict[str, tuple[float, ...]]:
    """How colourful a Large base's band (:data:`LARGE_BAND`) reads round the centre of each
    2 x 2 block, by the block's north-west square's name: in each of :data:`BAND_ANGLES`
    directions the band's mean :func:`_colourfulness`, or infinity where the band is textured there
    (mean :func:`_local_spread` above :data:`BAND_SMOOTH`): a base's plastic is neutral and smooth,
    art crossing the circle is coloured or speckled. Compared with the roster's own bases' grey on
    the photo by :func:`.placement.place` (reading R324), as :func:`plastic_colourfulness` is.

    ``view``: a :func:`.reference.top_down` of the photo (uint8 BGR, ``PX`` a square)."""
    if cols < 2 or rows < 2:
        return {}
    colour, spread = _colourfulness(view, exact=False), _local_spread(view)
    t = np.linspace(0, 2 * np.pi, BAND_ANGLES, endpoint=False)
    radii = np.linspace(LARGE_BAND[0], LARGE_BAND[1], 5)
    h, w = spread.shape
    out = {}
    for c in range(cols - 1):
        for r in range(rows - 1):
            cx, cy = (PAD + c + 1) * PX, (PAD + r + 1) * PX
            xs = np.clip(np.round(cx + np.outer(radii, np.cos(t)) * PX).astype(int), 0, w - 1)
            ys = np.clip(np.round(cy + np.outer(radii, np.sin(t)) * PX).astype(int), 0, h - 1)
            band = np.where(spread[ys, xs].mean(axis=0) <= BAND_SMOOTH, colour[ys, xs].mean(axis=0), np.inf)
            out[Square(c, r).name] = tuple(float(v) for v in band)
    return out


#: a map with no printed art, its floor plain paper: the squares' base cores are at most this
#: textured (the median over the squares of their grey's standard deviation, of 255) and at least
#: this light (their median grey). Measured on the 174 diagnosis photos' views (341-514): the 15
#: plain-paper maps 1.8-3.7 and 170-232; every printed art more textured than 3.9, and the five
#: under 5.8 dark or mid-grey (sci-fi plates 34-138, sand 128 and more textured, 5.5)
PLAIN_TEXTURE = 4.5
PLAIN_LIGHT = 150


def plain_paper(view: np.ndarray, cols: int, rows: int) -> bool:
    """Whether the map is plain paper with no printed art (reading R132): its squares' base cores
    (radius :data:`CORE`, clear of the grid lines) are, on the median square, untextured
    (:data:`PLAIN_TEXTURE`) and light (:data:`PLAIN_LIGHT`) -- the figures on a few squares leave
    the median alone. No disc of colour is printed on such a map, so a coloured base core there is
    a figure's painted body over its base (R123 is not asked).

    ``view``: a :func:`.reference.top_down` of the photo (uint8 BGR, ``PX`` a square)."""
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)[_core_pixels(cols, rows)].astype(np.float32)
    return bool(np.median(grey.std(axis=1)) <= PLAIN_TEXTURE and np.median(grey.mean(axis=1)) >= PLAIN_LIGHT)


#: the learned classifier's reading at which a square it reads as a base, neutral at the threshold
#: next looser than the one taken, is read as a base a little tinted (R124)
CLASSIFIER_SURE = 0.9
#: a base whose figure's body and sticker cover most of its top shows its grey plastic only round
#: them: a square whose base core is at least this share neutral (at the threshold taken), that the
#: learned classifier is sure of (:data:`CLASSIFIER_SURE`) and that shows a base's round rim
#: (:data:`HIDDEN_RIM`, :func:`rim_strength`), is doubtful, not surely empty (reading R131).
#: Measured on the diagnosis photos the colour reading answered without the reference (341-514):
#: the bases it read surely empty under their figures showed 0.11-0.47 of their core neutral, the
#: classifier 0.97-1.00, their rims 0.17-0.41; of the squares read empty showing all three, 9 of 77
#: held a base, most of the others on photos with every figure found (where nothing is named on them)
PARTLY_NEUTRAL = 0.1
HIDDEN_RIM = 0.15
#: the probability such a square is read at: doubtful and read as empty (below ``OCCUPIED``, above
#: ``1 - SURE`` of .placement), higher the more of its core is neutral -- so the roster's count,
#: short of bases, names a figure it did not find on the likeliest of them, listed to confirm
HIDDEN_FLOOR = 0.2
#: at most this share of the roster's squares may be read so: on the diagnosis photos 1-7 squares
#: (at most 0.4 of the roster's) where figures hid their bases, 11-24 (0.9-3.4 times the roster's
#: squares) on a nebula and grey-ringed art, where a Large figure was named on a block of them (s0505)
HIDDEN_MOST = 0.5


def neutral_reading(view: np.ndarray, cols: int, rows: int, roster_squares: int, dim_art: bool = False,
                    classifier: Mapping[str, float] | None = None, rims: np.ndarray | None = None) -> dict[str, float] | None:
    """P(a base stands on the square), per square name, from what colour a base is: round grey or
    black plastic, neutral, on colourful printed art (lava, carpet, sand, grass), neutral and
    lighter than the sky on near-black art (a star field; :func:`neutral_shares`). The strictest
    threshold of :data:`NEUTRAL_AT` that finds :data:`NEUTRAL_FOUND` of the roster's squares
    is taken; None on other art (grey stone, paper), where no threshold finds that many, or
    where the one that does reads more than :data:`DECISIVE` times the roster's squares (the art
    has grey patches of a base's size: it cannot tell). ``dim_art``: dim art is read too (R108:
    only where the first reading saw bases nearly everywhere). The photo alone: no reference needed.
    ``classifier``: the first reading's P(base) a square (the learned classifier's): a square it is
    sure of (:data:`CLASSIFIER_SURE`) whose core is neutral at the next looser threshold is read on
    that threshold -- a base the white balance or its figure's light tints a little more than the
    others, seen as a base by both readings (reading R124 in docs/readings.md). ``rims``: each
    square's base rim (:func:`rim_strength`, n = 1, row by row): with ``classifier``, a square
    partly neutral, sure to the classifier and rimmed is doubtful rather than surely empty
    (:func:`_hidden_under_figure`, reading R131).

    ``view``: a :func:`.reference.top_down` of the photo (uint8 BGR, ``PX`` a square)."""
    shares, dim, even = neutral_shares(view, cols, rows, dim_art)
    if not shares:
        return None
    need = NEUTRAL_FOUND * max(1, roster_squares)
    taken = next((k for k, t in enumerate(NEUTRAL_AT) if int((shares[t] >= NEUTRAL_HALF).sum()) >= need), None)
    if taken is None:
        return None
    share = shares[NEUTRAL_AT[taken]]
    if int((share >= NEUTRAL_HALF).sum()) > DECISIVE * max(1, roster_squares):
        return None
    # whether the colour reading answers, and at which threshold, as the much lighter plastic has
    # it: the even top found more on smooth art (s0445: a reading none was before, two squares of
    # art read as bases); then a dark grey base is read by its even top too (R143)
    share = even[NEUTRAL_AT[taken]]
    looser = shares[NEUTRAL_AT[taken + 1]] if taken + 1 < len(NEUTRAL_AT) else None
    if classifier is not None and looser is not None and not dim and int((looser >= NEUTRAL_HALF).sum()) <= max(1, roster_squares):
        # the strictest threshold that finds most of the roster's bases leaves out a base tinted a
        # little more (a blue figure's light, the white balance); where the learned classifier is
        # sure of a base and the next threshold reads its core neutral, the two readings agree --
        # while that threshold reads no more squares than the roster's bases cover: past that it
        # reads the art's grey too, which the classifier, on such art, reads as bases; and not on
        # dim art, where a base is told from the rock by 10 of 255 (R108), too little to loosen (R124)
        sure = np.array([classifier.get(Square(c, r).name, 0.0) >= CLASSIFIER_SURE for r in range(rows) for c in range(cols)])
        share = np.where(sure & (looser >= NEUTRAL_HALF), np.maximum(share, looser), share)
    p = 1.0 / (1.0 + np.exp(-np.clip((share - NEUTRAL_HALF) / NEUTRAL_SCALE, -30, 30)))
    if classifier is not None and rims is not None:
        p = _hidden_under_figure(p, share, classifier, rims, cols, rows, roster_squares)
    return {Square(c, r).name: float(p[r * cols + c]) for r in range(rows) for c in range(cols)}


def _hidden_under_figure(p: np.ndarray, share: np.ndarray, classifier: Mapping[str, float], rims: np.ndarray,
                         cols: int, rows: int, roster_squares: int) -> np.ndarray:
    """The colour reading's ``p`` (row by row) with the squares read surely empty that show a base
    under its figure made doubtful (reading R131): the figure's painted body and its sticker cover
    most of the base's top, so its core reads only partly neutral (:data:`PARTLY_NEUTRAL` of it,
    ``share``), where the learned classifier is sure of a base (:data:`CLASSIFIER_SURE`) and the
    base's round rim shows (:data:`HIDDEN_RIM`): its shape and its plastic both say base, its
    colour only that something painted stands on it. Read at :data:`HIDDEN_FLOOR` plus half its
    neutral share: still read empty, but the roster's count, short of bases, may name a figure
    there (listed to confirm) before reporting it not seen. Only where such squares are at most
    :data:`HIDDEN_MOST` of the roster's squares: a figure hides most of its base's top on a few of
    them; more, and the art itself shows all three (a grey nebula ringed all over), where they would
    offer the roster's count, and a Large base's blocks, squares of art to be named on."""
    sure = np.array([classifier.get(Square(c, r).name, 0.0) >= CLASSIFIER_SURE for r in range(rows) for c in range(cols)])
    hidden = sure & (share >= PARTLY_NEUTRAL) & (share < NEUTRAL_HALF) & (np.asarray(rims).ravel() >= HIDDEN_RIM)
    if int(hidden.sum()) > HIDDEN_MOST * roster_squares:
        return p
    return np.where(hidden, np.maximum(p, HIDDEN_FLOOR + share / 2), p)


# --------------------------------------------------------------------------- which way a figure's body leans

#: focal lengths (in image widths) a phone's camera may have: an estimate from the grid outside
#: them is taken as not measured (a camera looking nearly straight down fixes it poorly)
FOCAL_RANGE = (0.4, 2.0)
#: the focal length (image widths) taken where the grid does not measure it: a phone's main camera
FOCAL_GUESS = 0.8


def away_from_camera(H: np.ndarray, width: int, height: int, cols: int, rows: int) -> dict[str, tuple[float, float]]:
    """For each square, the unit direction on the map (columns, rows) in which whatever stands on
    it above the map -- a figure's body -- is seen leaning: away from the point of the map right
    under the camera. ``H``: the grid's homography (image -> board squares) of a ``width`` x
    ``height`` photo. The camera is recovered from the homography (a pinhole with its principal
    point at the photo's centre and square pixels; its focal length measured by the map's two axes
    being at right angles, else :data:`FOCAL_GUESS`). A square right under the camera gets (0, 0).

    >>> f = 0.8 * 400  # a camera 10 squares up over the point (5, 20), south of a 10 x 10 map, looking at its centre
    >>> import cv2
    >>> K = np.array([[f, 0, 200], [0, f, 150], [0, 0, 1.0]])
    >>> C = np.array([5.0, 20.0, 10.0])
    >>> z = np.array([5.0, 5.0, 0.0]) - C; z /= np.linalg.norm(z)
    >>> x = np.cross(z, [0, 0, 1.0]); x /= np.linalg.norm(x); y = np.cross(z, x)
    >>> R = np.stack([x, y, z]); t = -R @ C
    >>> G = K @ np.column_stack([R[:, 0], R[:, 1], t])
    >>> d = away_from_camera(np.linalg.inv(G), 400, 300, 10, 10)
    >>> [round(v, 2) for v in d["F6"]], [round(v, 2) for v in d["A1"]]
    ([0.03, -1.0], [-0.22, -0.97])
    """
    centre = _camera_over_map(H, width, height)
    out = {}
    for r in range(rows):
        for c in range(cols):
            d = np.array([c + 0.5 - centre[0], r + 0.5 - centre[1]])
            n = float(np.linalg.norm(d))
            out[Square(c, r).name] = (float(d[0] / n), float(d[1] / n)) if n > 1e-6 else (0.0, 0.0)
    return out


def lean_per_height(H: np.ndarray, width: int, height: int, cols: int, rows: int) -> dict[str, float]:
    """For each square, how far (squares) a point one square above its centre is seen shifted on
    the map, away from the camera (:func:`away_from_camera`'s direction): the square's distance
    from the point right under the camera over the camera's height less one, so a figure's body
    ``h`` squares tall standing there is seen over the map out to ``h`` times this from its base's
    centre (reading R139). 0 right under the camera; large where the camera is low and far
    (tests/test_photo_placement_head.py recovers it from a camera put in place).
    """
    centre = _camera_over_map(H, width, height)
    up = max(abs(float(centre[2])) - 1.0, 1e-6)  # the board's rows run south: its z may point down
    return {Square(c, r).name: float(np.hypot(c + 0.5 - centre[0], r + 0.5 - centre[1])) / up for r in range(rows) for c in range(cols)}


def _camera_over_map(H: np.ndarray, width: int, height: int) -> np.ndarray:
    """The camera's centre in board squares (x, y on the map, z its height over it), recovered
    from the grid's homography ``H`` (image -> board) as :func:`away_from_camera` says."""
    G = np.linalg.inv(np.asarray(H, np.float64))  # board -> image
    cx, cy = width / 2.0, height / 2.0
    u1 = np.array([G[0, 0] - cx * G[2, 0], G[1, 0] - cy * G[2, 0]])
    u2 = np.array([G[0, 1] - cx * G[2, 1], G[1, 1] - cy * G[2, 1]])
    z1, z2 = G[2, 0], G[2, 1]
    f2 = -float(u1 @ u2) / (z1 * z2) if abs(z1 * z2) > 1e-12 else -1.0
    f = float(np.sqrt(f2)) if f2 > 0 else 0.0
    if not FOCAL_RANGE[0] * width <= f <= FOCAL_RANGE[1] * width:
        f = FOCAL_GUESS * width
    A = np.diag([1 / f, 1 / f, 1.0]) @ np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]]) @ G  # [r1 r2 t] up to scale
    scale = (np.linalg.norm(A[:, 0]) + np.linalg.norm(A[:, 1])) / 2
    r1, r2, t = A[:, 0] / scale, A[:, 1] / scale, A[:, 2] / scale
    if t[2] < 0:  # the map in front of the camera
        r1, r2, t = -r1, -r2, -t
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    return np.asarray(-R.T @ t)  # the camera in board squares; its x, y the point right under it
