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
  in the harder marker searches, the last of which enlarged a 12 MP photo to 48 MP (1.2-1.6 s
  by itself, on any image). Now each search is started only when the budget still holds what it
  is predicted to cost (its pixels times the seconds a megapixel cost the searches before it),
  with the printed-lines search's share kept in reserve; a search skipped is named in the
  refusal. The enlarged search scans at most :data:`MAX_SCAN_PIXELS`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import cv2
import numpy as np

from ..i18n import _

#: the side (pixels) of the copy the detail is measured on: the measure is a ratio, so any
#: photo size gives the same answer, in a few milliseconds
DETAIL_SIDE = 800
#: the least :func:`structure` of an image that may show a board. Measured on the 800-px copy:
#: generated photos of real tables 1.46-2.85 (any look, tilt, art and size, 800 to 4000 px), a
#: white sheet of printed markers 1.88; uniform noise 0.06-0.07 (JPEG-compressed too), noise
#: blurred by a 1-pixel Gaussian 0.12, noise enlarged four times 0.22 (eight times: 1.13, and
#: ArUco's work on grain that coarse is small)
MIN_STRUCTURE = 0.5
#: the candidates (quadrilaterals ArUco decodes) a harder marker search may be handed before the
#: searches after it are skipped. Measured: at most 481 on generated photos (the upscaled pass of
#: a photo without corner markers); 3,867 on noise enlarged four times, 17,007 on raw noise
MAX_MARKER_CANDIDATES = 1500
#: the CPU seconds one photo's grid search may cost (issue 28: any image answered or refused in 2 s)
CPU_SECONDS = 2.0
#: the CPU seconds kept for the printed-lines search when no corner markers give the grid.
#: Measured at 12 MP: 0.3-0.6 s (a photo of a table, a page of text, pebbles)
LINES_RESERVE = 0.6
#: the most pixels an enlarged marker search may scan: a 12 MP photo enlarged twice (48 MP) cost
#: 1.2-1.6 CPU-seconds by itself on any image; enlarged to 24 MP about half that
MAX_SCAN_PIXELS = 24_000_000
#: what a megapixel of the enlarged marker search costs, as a share of what the searches before it
#: cost a megapixel (the enlarged copy is smooth: fewer candidate outlines per pixel). Measured:
#: 0.51-0.78 on held-out generated photos (grate, cells, sand floors), 0.63-0.73 on a page of text,
#: a chessboard and a table with no map. Predicting it at the full rate skipped it on photos whose
#: small corner markers only it reads (most grate floors, with the machine under load)
ENLARGED_SHARE = 0.8
#: the least a megapixel of marker search is assumed to cost before one is measured (s/MP;
#: measured 0.02-0.05 on photos of tables, text, noise)
MIN_RATE = 0.02


class Budget:
    """The work one photo's analysis may do: :data:`CPU_SECONDS` of CPU (``clock``, the
    process's CPU time: the command line analyses one photo a process, the web server one at a
    time), spent stage by stage. A stage asks :meth:`afford` with its predicted cost first; one
    that would overrun is skipped and named in :meth:`explain`. Mutable: one per photo.

    >>> t = iter([0.0, 0.1, 1.9])
    >>> b = Budget(seconds=2.0, clock=lambda: next(t))
    >>> b.afford("a small search", 0.5)
    True
    >>> b.afford("an enlarged search", 0.5)
    False
    >>> b.skipped
    ['an enlarged search']
    """

    def __init__(self, seconds: float = CPU_SECONDS, clock: Callable[[], float] = time.process_time) -> None:
        self.seconds = seconds
        self.clock = clock
        self.start = clock()
        self.rate = MIN_RATE  # CPU seconds per megapixel of marker search, the most seen so far
        self.skipped: list[str] = []

    def spent(self) -> float:
        return self.clock() - self.start

    def left(self) -> float:
        return self.seconds - self.spent()

    def afford(self, stage: str, cost: float, reserve: float = 0.0) -> bool:
        """Whether a stage predicted to cost ``cost`` seconds fits, ``reserve`` kept for later
        stages; if not, it is noted as skipped."""
        if self.left() - reserve >= cost:
            return True
        self.skipped.append(stage)
        return False

    def measured(self, megapixels: float, seconds: float) -> None:
        """A marker search's cost, for predicting the next one's."""
        if megapixels > 0:
            self.rate = max(self.rate, seconds / megapixels)

    def predict(self, megapixels: float) -> float:
        return self.rate * megapixels

    def explain(self) -> str:
        """A sentence for a refusal: which searches the budget cut short, or nothing."""
        if not self.skipped:
            return ""
        return _("the search stopped at its work budget of {seconds} CPU-seconds before: {stages}").format(
            seconds=f"{self.seconds:g}", stages=", ".join(self.skipped))


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
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
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
