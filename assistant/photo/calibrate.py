"""Camera calibration from photos of a ChArUco board, and printable sheets at true scale.

The calibration file is OpenCV FileStorage YAML with the standard keys ``camera_matrix``,
``distortion_coefficients``, ``image_width``, ``image_height`` and ``avg_reprojection_error``.
The ChArUco board uses the 5x5 dictionary so its markers are never mistaken for the table's
4x4 map and base markers.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..errors import AssistantError
from ..fileread import read_limited
from ..i18n import _
from .printed import DICT

CHARUCO_DICT = cv2.aruco.DICT_5X5_100
SQUARES = (7, 5)
SQUARE_MM = 30.0
MARKER_MM = 22.0
#: a calibration file is a few hundred bytes of YAML
MAX_CALIBRATION_BYTES = 1024 * 1024
#: how deep brackets, braces or XML elements may nest in a calibration file (one written by
#: 'calibrate camera' nests 2 deep); OpenCV's reader recurses per level and crashes the process
#: (a segmentation fault, nothing Python can catch) on 50,000 nested brackets
MAX_CALIBRATION_NESTING = 64
_NESTING = re.compile(r"[\[{]|[\]}]|</|<[A-Za-z_][^<>]*?(?<!/)>")


def nesting(text: str) -> int:
    """How deep brackets, braces and XML elements nest in ``text`` (quotes are not minded: a
    calibration file holds no bracket in a string).

    >>> nesting("a: [1, [2, {b: 3}]]"), nesting("<a><b>1</b><c/></a>"), nesting("x")
    (3, 2, 0)
    """
    depth = most = 0
    for m in _NESTING.finditer(text):
        if m.group() in ("]", "}", "</"):
            depth -= 1
        else:
            depth += 1
            most = max(most, depth)
    return most


def board() -> cv2.aruco.CharucoBoard:
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM / 1000, MARKER_MM / 1000, cv2.aruco.getPredefinedDictionary(CHARUCO_DICT))


def charuco_sheet(dpi: int = 300) -> np.ndarray:
    """The ChArUco board at true scale (print at ``dpi`` with no scaling)."""
    px = int(round(SQUARE_MM / 25.4 * dpi))
    return board().generateImage((SQUARES[0] * px, SQUARES[1] * px), marginSize=0, borderBits=1)


def marker_sheet(ids: Sequence[int], side_mm: float = 12.0, dpi: int = 300) -> np.ndarray:
    """ArUco 4x4_50 markers (figure bases: 4+, map corners: 0-3) with labels, at true scale."""
    side = int(round(side_mm / 25.4 * dpi))
    gap = side // 2
    cols = 8
    rows = (len(ids) + cols - 1) // cols
    sheet = np.full((rows * (side + 2 * gap), cols * (side + 2 * gap)), 255, np.uint8)
    d = cv2.aruco.getPredefinedDictionary(DICT)
    for i, mid in enumerate(ids):
        r, c = divmod(i, cols)
        y, x = r * (side + 2 * gap) + gap, c * (side + 2 * gap) + gap
        sheet[y:y + side, x:x + side] = cv2.aruco.generateImageMarker(d, int(mid), side)
        cv2.putText(sheet, str(mid), (x, y + side + gap // 2 + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.5, 0, 1)
    return sheet


@dataclass(frozen=True)
class Camera:
    camera_matrix: np.ndarray
    distortion_coefficients: np.ndarray
    image_width: int
    image_height: int
    avg_reprojection_error: float


def calibrate(images: Sequence[np.ndarray]) -> Camera:
    detector = cv2.aruco.CharucoDetector(board())
    obj_all, img_all = [], []
    size = None
    for img in images:
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
        size = gray.shape[::-1]
        corners, ids, _marker_corners, _marker_ids = detector.detectBoard(gray)
        if ids is None or len(ids) < 6:
            continue
        obj, imgp = board().matchImagePoints(corners, ids)  # type: ignore[call-overload]  # the stubs want a list; ChArUco corners are one array
        obj_all.append(obj)
        img_all.append(imgp)
    if len(obj_all) < 3 or size is None:
        raise AssistantError(_("calibration needs at least 3 photos showing the ChArUco board clearly; {n} of {n2} did").format(n=len(obj_all), n2=len(images)))
    rms, K, dist, _rvecs, _tvecs = cv2.calibrateCamera(obj_all, img_all, size, None, None)
    return Camera(K, dist.ravel(), int(size[0]), int(size[1]), float(rms))


def save(camera: Camera, path: str | Path) -> None:
    fs = cv2.FileStorage(str(path), cv2.FILE_STORAGE_WRITE)
    try:
        fs.write("camera_matrix", camera.camera_matrix)
        fs.write("distortion_coefficients", np.asarray(camera.distortion_coefficients).reshape(1, -1))
        fs.write("image_width", camera.image_width)
        fs.write("image_height", camera.image_height)
        fs.write("avg_reprojection_error", camera.avg_reprojection_error)
    finally:
        fs.release()


def load(path: str | Path) -> Camera:
    """The camera of a calibration file ``calibrate camera`` wrote; anything else (a text file, a
    FIFO, a damaged file) is refused naming the file. The file is read here, bounded, and handed
    as text to OpenCV's reader in a child process: that reader fails on a text file with an error
    Python cannot catch as one (a SystemError), and corrupts its process's heap on some hostile
    texts."""
    p = Path(path)
    if p.is_dir():
        raise AssistantError(_("{p} is a directory, not a calibration file").format(p=p))
    try:
        raw = read_limited(p, MAX_CALIBRATION_BYTES)
    except FileNotFoundError:
        raise AssistantError(_("no calibration file {p}").format(p=p)) from None
    except OSError as exc:
        raise AssistantError(_("{p} cannot be read ({why})").format(p=p, why=exc.strerror or exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if not text.lstrip().startswith(("%YAML", "<?xml", "{")) or "camera_matrix" not in text or nesting(text) > MAX_CALIBRATION_NESTING:
        raise AssistantError(_("{p} is not an OpenCV calibration file (write one with 'calibrate camera')").format(p=p))
    # OpenCV's FileStorage parser corrupts the heap on some hostile texts (bench/fuzz.py's calib
    # family: glibc aborts, or a segmentation fault, cases later in the same process): it reads the
    # text in a child process, so a crash or a corrupted heap there cannot reach this one
    try:
        child = subprocess.run([sys.executable, "-I", "-c", _READ_IN_CHILD], input=text.encode("utf-8"),
                               capture_output=True, timeout=CHILD_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        raise AssistantError(_("{p} is not an OpenCV calibration file").format(p=p)) from None
    try:
        got = json.loads(child.stdout) if child.returncode == 0 else None
        if not isinstance(got, dict):
            raise ValueError
        if got.get("missing"):
            raise AssistantError(_("{p} lacks camera_matrix or distortion_coefficients").format(p=p))
        K = np.array(got["K"], dtype=float)
        d = np.array(got["d"], dtype=float).ravel()
        if K.shape != (3, 3) or not (np.isfinite(K).all() and np.isfinite(d).all()):
            raise AssistantError(_("{p} lacks camera_matrix or distortion_coefficients").format(p=p))
        return Camera(K, d, int(got["w"]), int(got["h"]), float(got["err"]))
    except (ValueError, OverflowError, TypeError, KeyError):
        raise AssistantError(_("{p} is not an OpenCV calibration file").format(p=p)) from None


#: seconds the child may take to read a calibration file (it imports OpenCV first)
CHILD_SECONDS = 60.0
#: the child's program: the text on stdin, the camera as JSON on stdout; an error: exit 1
_READ_IN_CHILD = """
import json, sys
import cv2
text = sys.stdin.buffer.read().decode("utf-8")
fs = cv2.FileStorage(text, cv2.FILE_STORAGE_READ | cv2.FILE_STORAGE_MEMORY)
K = fs.getNode("camera_matrix").mat()
d = fs.getNode("distortion_coefficients").mat()
if K is None or d is None:
    print(json.dumps({"missing": True}))
else:
    out = {"K": K.tolist(), "d": d.ravel().tolist(), "w": fs.getNode("image_width").real(),
           "h": fs.getNode("image_height").real(), "err": fs.getNode("avg_reprojection_error").real()}
    print(json.dumps(out))
"""


def render_board_views(n: int = 8, size: tuple[int, int] = (1600, 1200), seed: int = 0) -> tuple[list[np.ndarray], np.ndarray]:
    """Synthetic photos of the ChArUco sheet from a known pinhole camera (for tests)."""
    rng = np.random.default_rng(seed)
    w, h = size
    K = np.array([[1400.0, 0, w / 2], [0, 1400.0, h / 2], [0, 0, 1]])
    sheet = charuco_sheet(150)
    bw, bh = SQUARES[0] * SQUARE_MM / 1000, SQUARES[1] * SQUARE_MM / 1000
    S = np.array([[bw / sheet.shape[1], 0, -bw / 2], [0, bh / sheet.shape[0], -bh / 2], [0, 0, 1]])
    views = []
    for _step in range(n):
        rvec = rng.uniform(-0.5, 0.5, 3)
        rvec[2] = rng.uniform(-0.3, 0.3)
        R, _ = cv2.Rodrigues(rvec)
        t = np.array([rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03), rng.uniform(0.35, 0.5)])
        H = K @ np.column_stack([R[:, 0], R[:, 1], t]) @ S
        views.append(cv2.warpPerspective(cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR), H, (w, h), borderValue=(255, 255, 255)))
    return views, K
