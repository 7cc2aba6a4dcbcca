"""Stage 1: find the ArUco markers (CONTRACT §4: 4x4_50; 0-3 map corners, 4+ figure bases)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .synth import DICT

MAX_SIDE = 2400  # markers are searched on a copy no larger than this; corners are scaled back


@dataclass(frozen=True)
class Marker:
    id: int
    corners: np.ndarray  # 4 x 2, image pixels, clockwise from the marker's top-left


def find_markers(image: np.ndarray) -> list[Marker]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = min(1.0, MAX_SIDE / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICT), params)
    corners, ids, _ = detector.detectMarkers(small)
    out = []
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel(), strict=True):
        out.append(Marker(int(i), c.reshape(4, 2).astype(np.float64) / scale))
    return out
