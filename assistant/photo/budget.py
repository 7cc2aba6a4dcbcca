"""The grid search's work budget: a photo that cannot show a board is refused in a fraction of a second.

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
"""

from __future__ import annotations

import cv2
import numpy as np

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
