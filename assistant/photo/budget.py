"""The grid search's work budget: any image is answered or refused within about 2 s of CPU.

Measured (cProfile, issue 25): on an 800 x 600 image of random noise the harder corner-marker
searches spent over five CPU-minutes inside ArUco, whose cost grows with the square of the
number of candidate quadrilaterals it is given (17,007 on that image; at most about 500 on every
generated photo of a real table, of any size, look or tilt); the search for the printed lines
then took about one second more. Two limits keep that work bounded, whatever the upload:

* :func:`structure` -- a photo of a table has most of its detail at the scale of the things on
  it (the map, its lines and art, bases, figures); noise has nearly all of it at the scale of
  its grain. An image with too little detail at that coarser scale shows nothing a board could
  be read from: no marker or printed-lines search is run on it, and it is refused as any photo
  without a board is (no corner marker seen, no printed grid matched).
* :data:`MAX_MARKER_CANDIDATES` -- a harder marker search that was handed more candidates than
  this stops the searches after it (each looks at more pixels than the one before, so more
  candidates still, at a cost that grows with their square).
* :class:`Budget` (issue 28) -- what survives those two (a page of text, pebbles, a carpet:
  detail at the scale of objects, no board) still cost 2.6-3.5 CPU-seconds at 12 MP, nearly all
  in the harder marker searches, the last of which enlarged a 12 MP photo to 48 MP. Now each
  search is started only when the budget still holds what it is predicted to cost, with the
  printed-lines search's share kept in reserve; a search skipped is named in the refusal. The
  enlarged search scans at most :data:`MAX_SCAN_PIXELS`.

The budget counts **work, never time** (issue 28, round 3): a search's cost is a model of its
work units -- the megapixels it converts and scans and the candidate quadrilaterals ArUco looked
at (:func:`marker_search_cost`) -- in calibrated CPU-seconds. The same image therefore gets the
same searches and the same answer however loaded the machine is (it used to be decided from
``time.process_time``, and a grate floor read at rest was refused under load). The model's
constants were measured once by ``bench/photo_cost.py``; the bound itself, in real CPU-seconds,
is measured by ``bench/photo_budget.py``.
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from ..i18n import _
from . import views

#: the side (pixels) of the copy the detail is measured on: the measure is a ratio, so any
#: photo size gives the same answer, in a few milliseconds
DETAIL_SIDE = 800
#: the least :func:`structure` of an image that may show a board. Measured on the 800-px copy:
#: generated photos of real tables 1.46-2.85 (any look, tilt, art and size, 800 to 4000 px), a
#: white sheet of printed markers 1.88; uniform noise 0.06-0.07 (JPEG-compressed too), noise
#: blurred by a 1-pixel Gaussian 0.12, noise enlarged four times 0.22 (eight times: 1.13, and
#: ArUco's work on grain that coarse is small). Photos from an independent renderer
#: (bench/independent) of maps with fine-grained art -- a starfield, speckled lava -- measured
#: 0.42-0.49 and were refused as structureless at 0.5 though their corner markers read plainly;
#: 0.3 keeps every noise image out with room
MIN_STRUCTURE = 0.3
#: the candidates (quadrilaterals ArUco decodes) a harder marker search may be handed before the
#: searches after it are skipped. Measured: at most 481 on generated photos (the upscaled pass of
#: a photo without corner markers); 3,867 on noise enlarged four times, 17,007 on raw noise
MAX_MARKER_CANDIDATES = 1500
#: the corner markers read after which no harder corner-marker search is run: three give the
#: grid (the printed lines confirm it, or its fourth corner is corrected from them or refused:
#: :func:`.lines.check_with_lines`), and the searches for a fourth cost 0.5-1.5 CPU-seconds a
#: photo. Measured on the 48 independent diagnosis photos (heldout 371-394, game and empty map):
#: the same photos answered and refused either way, every grid within 0.21 squares of the
#: renderer's lattice at its worst point either way (three changed by at most 0.03 squares), and
#: the grid search on the photos with three markers read first 0.93-1.82 -> 0.33-0.42 CPU-seconds
CORNERS_ENOUGH = 3
# (two are enough where the printed lines confirm their grid before the whole-photo searches:
# :func:`assistant.photo.locate_grid`)
#: the CPU seconds any image may cost, answered or refused (issue 28)
CPU_SECONDS = 2.0
#: the modelled CPU seconds one photo's grid search may cost: :data:`CPU_SECONDS` less a fifth,
#: for a machine busier than the one the model was measured on (CPU time grows with the load:
#: with the whole 2 s modelled, bench/photo_budget.py measured up to 2.2 s on pebbles at a load
#: average of 14 on 2 cores)
WORK_SECONDS = 1.6
#: what a megapixel of the photo costs before any search: decoding the JPEG and measuring its
#: :func:`structure`. Measured 0.008-0.011 s/MP (12 and 48 MP)
COST_PER_PHOTO_MP = 0.011
#: the CPU seconds kept for the printed-lines search when no corner markers give the grid.
#: Measured at 12 MP: 0.3-0.6 s (a photo of a table, a page of text, pebbles)
LINES_RESERVE = 0.6
#: what the printed-lines search costs for each four-cornered outline it reads the lines through
#: (its combs both ways round, the inset grid, the crossings): about 0.2 CPU-seconds an outline
#: whatever the map's or the photo's size, the lines being measured on the 1,600-px search copy
#: (independent photos s0414, s0416, s0419: 1.1-1.45 s over 3-5 outlines). Reading R88
COST_PER_OUTLINE = 0.2
#: what reading one outline's thin printed-line ridges costs, one way round and one polarity
#: (:func:`.lines._ridge_inset`, run only where the line profiles and their combs give no inset
#: grid): 0.015-0.03 CPU-seconds measured on the 1,600-px search copy, up to 12 a photo
#: (independent photos s0413, s0419, s0432, s0462). Reading R103
COST_PER_RIDGE_SEARCH = 0.025
#: what one check of a corner markers' grid by the printed lines costs (:func:`.lines.check_with_lines`,
#: its free corner's refinement included): 0.15-0.22 CPU-seconds measured at 12 MP (independent
#: photos s0347, s0419: two checks each, 0.35-0.45 s). Reading R88
CHECK_COST = 0.2
#: the outlines :data:`LINES_RESERVE` pays for; each one after them is charged
#: :data:`COST_PER_OUTLINE` and searched only while the budget holds it (reading R88)
OUTLINES_IN_RESERVE = round(LINES_RESERVE / COST_PER_OUTLINE)
#: the most pixels an enlarged marker search may scan: a 12 MP photo enlarged twice (48 MP) cost
#: 1.2-1.6 CPU-seconds by itself on any image; enlarged to 24 MP about half that
MAX_SCAN_PIXELS = 24_000_000
#: The cost model of one corner-marker search (:func:`marker_search_cost`), in CPU-seconds.
#: Measured by ``bench/photo_cost.py`` (least of two runs, ``time.process_time`` counting every
#: OpenCV thread, on this project's 2-core build machine while other jobs shared it; least-squares
#: fit) on 6 generated photos of tables (1600-4000 px, grate, sand, cells, lava and training floors,
#: with and without corner markers) and 6 hostile images at 12 MP (text, carpet, pebbles, a table
#: without a map, a chessboard, noise enlarged 8 times): measured / modelled 0.69-1.35 for the harder,
#: full-resolution and enlarged searches (33 runs, 0-12,516 candidates, 23.5 s on the last).
#: Per megapixel of the photo: its grey copy and the resize to the copy searched.
COST_PER_INPUT_MP = 0.0031
#: per megapixel of the first search's input (grey copy, area resize to 2,400 px, the default
#: detector's 3 thresholds): 0.023-0.03 s measured at 2-4 MP, 0.07-0.14 s at 12 MP
COST_PER_INPUT_MP_FIRST = 0.0078
#: per megapixel scanned by a harder search (its 6 adaptive thresholds)
COST_PER_SCANNED_MP = 0.0157
#: per thousand candidates, and per thousand candidates squared: ArUco's work grows with the
#: square of the candidates (12,516 on noise enlarged 8 times cost 23.5 s; 1,261-1,431 on a grate
#: floor 0.57-0.68 s)
COST_PER_KCANDIDATE = 0.0967
COST_PER_KCANDIDATE_SQUARED = 0.1419


def marker_search_cost(photo_mp: float, scanned_mp: float, candidates: int, first: bool = False) -> float:
    """The modelled CPU-seconds of one corner-marker search on a photo of ``photo_mp`` megapixels
    that scans ``scanned_mp`` (the 2,400-px copy, the photo, or the photo enlarged) and hands ArUco
    ``candidates`` quadrilaterals; ``first``: the default search (fewer thresholds).

    >>> round(marker_search_cost(12.0, 24.0, 0), 3)  # a 12 MP photo enlarged to 24 MP, no candidates
    0.414
    >>> marker_search_cost(4.32, 4.32, 12_516) > 20  # noise enlarged 8 times (measured 23.5 s)
    True
    """
    k = candidates / 1000
    pixels = COST_PER_INPUT_MP_FIRST * photo_mp if first else COST_PER_INPUT_MP * photo_mp + COST_PER_SCANNED_MP * scanned_mp
    return pixels + COST_PER_KCANDIDATE * k + COST_PER_KCANDIDATE_SQUARED * k * k


class Budget:
    """The work one photo's grid search may do: :data:`WORK_SECONDS` of modelled CPU, spent stage
    by stage. A stage asks :meth:`afford` with its predicted cost first; one that would overrun
    is skipped and named in :meth:`explain`; what a stage did is charged after it
    (:meth:`charge`, :meth:`searched`). No clock is read: the same image is searched the same
    way on any machine under any load. Mutable: one per photo.

    >>> b = Budget(seconds=2.0)
    >>> b.afford("a small search", 0.5)
    True
    >>> b.charge(1.8)
    >>> b.afford("an enlarged search", 0.5)
    False
    >>> b.skipped
    ['an enlarged search']
    """

    def __init__(self, seconds: float = WORK_SECONDS) -> None:
        self.seconds = seconds
        self.spent = 0.0
        #: the most candidates a marker search has been handed so far: a photo's candidates come
        #: from what it shows (text, pebbles, a grate's bars), so the next search's are predicted alike
        self.candidates = 0
        #: the megapixels the search that was handed them scanned
        self.scanned = 0.0
        self.skipped: list[str] = []
        #: the work kept back for a stage after the one now running (the registration on the
        #: reference's art, while the printed-lines search reads outlines beyond its reserve)
        self.kept = 0.0

    def left(self) -> float:
        return self.seconds - self.spent

    def afford(self, stage: str, cost: float, reserve: float = 0.0) -> bool:
        """Whether a stage predicted to cost ``cost`` fits, ``reserve`` kept for later stages;
        if not, it is noted as skipped."""
        if self.left() - reserve >= cost:
            return True
        self.skipped.append(stage)
        return False

    def charge(self, cost: float) -> None:
        self.spent += cost

    def predict(self, photo_mp: float, scanned_mp: float) -> float:
        """A harder marker search's modelled cost, its candidates predicted as the most seen so far;
        for a search of the photo enlarged, grown with the square root of the pixels it scans
        beyond that search's: enlarging a photo twice (4 x the pixels) handed ArUco 1.9 x the
        candidates (independent photos, seeds 325, 337 and 338: 291 -> 555, 698 -> 1,333, 801 ->
        1,548), and the enlarged search predicted at the candidates seen so far spent the
        printed-lines search's reserve (seed 338 was refused without that search being run).

        >>> b = Budget()
        >>> b.searched(4.0, 4.0, 800)
        >>> round(b.predict(4.0, 16.0), 3)
        0.782
        >>> b = Budget()
        >>> b.searched(12.0, 4.3, 640)  # the shrunk copy's harder search, then the whole photo's
        >>> b.predict(12.0, 12.0) == marker_search_cost(12.0, 12.0, round(640 * 12.0 / 4.3))
        True
        """
        enlarged = scanned_mp > photo_mp and scanned_mp > self.scanned > 0
        grown = self.candidates * (float(np.sqrt(scanned_mp / self.scanned)) if enlarged else 1.0)
        if scanned_mp <= photo_mp and scanned_mp > self.scanned > 0:
            # the photo at its own resolution after the shrunk copy: the grain the shrinking blurred
            # away comes back as candidates, in proportion to the pixels (independent photos, seeds
            # 347, 353-355: 146 -> 676, 707 -> 1,150, 159 -> 423, 640 -> 1,712 from 4.3 to 12 MP);
            # predicted at the copy's count it spent the printed-lines search's reserve, and seeds
            # 353 and 355 were refused without that search being run
            grown = self.candidates * scanned_mp / self.scanned
        return marker_search_cost(photo_mp, scanned_mp, round(grown))

    def searched(self, photo_mp: float, scanned_mp: float, candidates: int, first: bool = False) -> None:
        """Charges a marker search that was run, by the work it did."""
        if candidates >= self.candidates:
            self.candidates, self.scanned = candidates, scanned_mp
        self.charge(marker_search_cost(photo_mp, scanned_mp, candidates, first))

    def explain(self, failed: str = "", unnamed: Collection[str] = ()) -> str:
        """A sentence for a refusal: which searches the budget cut short, or nothing. ``failed``:
        a search that was run and found nothing, named first, so the budget does not read as the
        cause where that search decided the refusal (the printed-lines search run in full after an
        enlarged marker search was skipped: independent photos s0425, s0428). ``unnamed``: stages
        cut short that could not have given the grid, left unsaid (reading R308: the enlarged
        corner-marker search where the searches run read no corner marker at all).

        >>> b = Budget(seconds=1.0)
        >>> b.afford("the enlarged corner-marker search", 2.0)
        False
        >>> b.explain("the printed-lines search")
        'the printed-lines search was run and matched no grid; the work budget of 1 CPU-seconds left out: the enlarged corner-marker search'
        >>> b.explain("the printed-lines search", unnamed=["the enlarged corner-marker search"])
        'the printed-lines search was run and matched no grid'

        A stage skipped twice (the printed lines' thin ridges, cut short in the first search and again
        in the search on the straightened photo) is named once:

        >>> b.afford("the printed lines' thin ridges", 2.0), b.afford("the printed lines' thin ridges", 2.0)
        (False, False)
        >>> b.explain()
        "the search stopped at its work budget of 1 CPU-seconds before: the enlarged corner-marker search, the printed lines' thin ridges"
        """
        skipped = [stage for stage in dict.fromkeys(self.skipped) if stage not in unnamed]
        if not skipped:  # the refusal already says what was not found
            return _("{search} was run and matched no grid").format(search=failed) if failed and self.skipped else ""
        stages = ", ".join(skipped)
        if failed:
            return _("{search} was run and matched no grid; the work budget of {seconds} CPU-seconds left out: {stages}").format(
                search=failed, seconds=f"{self.seconds:g}", stages=stages)
        return _("the search stopped at its work budget of {seconds} CPU-seconds before: {stages}").format(
            seconds=f"{self.seconds:g}", stages=stages)


def structure(image: np.ndarray) -> float:
    """The image's detail at the scale of objects (between Gaussian blurs of 4 and 16 pixels, on a
    copy at most :data:`DETAIL_SIDE` pixels a side) over its detail finer than 4 pixels: about
    1.5-3 for a photo of a table, 0.06 for uniform noise; a blank image has none (0).

    >>> structure(np.full((60, 80, 3), 128, np.uint8))
    0.0
    >>> noise = (np.random.default_rng(0).random((600, 800, 3)) * 255).astype(np.uint8)
    >>> structure(noise) < MIN_STRUCTURE
    True
    >>> board = np.full((600, 800, 3), 230, np.uint8)
    >>> for k in range(0, 600, 40):
    ...     board[k:k + 2] = board[:, k:k + 2] = 40
    >>> structure(board) > MIN_STRUCTURE
    True
    """
    gray = views.gray(image)  # the marker searches' grey copy too (.views)
    scale = min(1.0, DETAIL_SIDE / max(gray.shape[:2]))
    if scale < 1:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    g = gray.astype(np.float32)
    four = cv2.GaussianBlur(g, (0, 0), 4.0)
    sixteen = cv2.GaussianBlur(four, (0, 0), float(np.sqrt(16.0 ** 2 - 4.0 ** 2)))  # blurs add in squares
    fine = float(np.mean(np.abs(g - four)))
    if fine < 0.01:  # a blank image (the blurs' rounding aside): nothing to read
        return 0.0
    return float(np.mean(np.abs(four - sixteen))) / fine


def has_structure(image: np.ndarray) -> bool:
    """Whether the image could show a board at all (:func:`structure` at least :data:`MIN_STRUCTURE`)."""
    return structure(image) >= MIN_STRUCTURE
