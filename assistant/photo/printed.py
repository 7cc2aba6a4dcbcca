"""What is printed on the table for the camera: the ArUco dictionary of the map-corner and base
markers, and a corner marker's side.

Kept apart from :mod:`.synth` (which draws photos of tables for the tests and benchmarks, and
re-exports these names) so that reading a photo does not import the photo generator and its
scenery: that import was about a tenth of a ``photo detect`` call's start-up (round 11 of issue 28).
"""

from __future__ import annotations

import cv2

__all__ = ["DICT", "MARKER_SQUARES"]

DICT = cv2.aruco.DICT_4X4_50
MARKER_SQUARES = 1.2  # side of a map-corner marker, in squares
