"""Stage 3b: which squares hold a base, by a learned classifier.

Each square is judged from a crop of the top-down (rectified) view two squares wide, centred
on the square: the context tells a base under a figure from a body leaning over from the next
square, or from dark printed art. The classifier is a small CNN (three 3x3 convolutions, one
hidden layer; about 40,000 weights) trained by ``tools/train_occupancy.py`` on the generator's
widely varied photos (:mod:`.scenery`). It ships as ONNX and runs through OpenCV's DNN module:
nothing is downloaded. Its output is a calibrated probability (Platt scaling on photos the
training never saw), so squares near 0.5 are the ones a person should confirm.

A table profile (``photo adapt``) refits the last layer's weights on one's own map and figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..coords import Square
from ..errors import AssistantError
from ..fileread import read_limited
from ..i18n import _
from .board import Grid

MODEL_DIR = Path(__file__).resolve().parent / "models"
MODEL = MODEL_DIR / "occupancy.onnx"
#: a table profile is a few kilobytes of numbers; a bigger file is not one ('photo adapt' writes them)
MAX_PROFILE_BYTES = 16 * 1024 * 1024
CROP = 32  # crop side in pixels
CONTEXT = 2.0  # crop side in squares
PX = int(CROP / CONTEXT)  # pixels per square of the view the crops are cut from
PAD = 1  # squares of context around the map (the view extends past its edge)


def board_view(image: np.ndarray, grid: Grid, cols: int, rows: int, px: int = 40) -> np.ndarray:
    """The map seen from above with ``PAD`` squares round it, ``PX`` pixels a square,
    brightness and white balance normalised on the map: its bright paper at 0.85 (float32, 0..1)."""
    S = np.array([[px, 0, PAD * px], [0, px, PAD * px], [0, 0, 1]], np.float64)
    big = cv2.warpPerspective(image, S @ grid.H, ((cols + 2 * PAD) * px, (rows + 2 * PAD) * px), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    view = cv2.resize(big, ((cols + 2 * PAD) * PX, (rows + 2 * PAD) * PX), interpolation=cv2.INTER_AREA).astype(np.float32)
    inner = view[PAD * PX:(PAD + rows) * PX, PAD * PX:(PAD + cols) * PX].reshape(-1, 3)
    white = np.percentile(inner, 95, axis=0) + 1.0
    return np.clip(view * (0.85 / white), 0.0, 1.0)


def crops(view: np.ndarray, cols: int, rows: int) -> np.ndarray:
    """One CROP x CROP crop per square, row by row (N, CROP, CROP, 3), centred on the square."""
    half = CROP // 2
    out = np.empty((rows * cols, CROP, CROP, 3), np.float32)
    k = 0
    for r in range(rows):
        for c in range(cols):
            cy, cx = (PAD + r) * PX + PX // 2, (PAD + c) * PX + PX // 2
            out[k] = view[cy - half:cy + half, cx - half:cx + half]
            k += 1
    return out


@dataclass(frozen=True)
class TableProfile:
    """A last layer refitted to one table (``photo adapt``): weights of the hidden layer's
    32 outputs and a bias, replacing the shipped ones."""

    weights: tuple[float, ...]
    bias: float
    name: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"kind": "occupancy-table-profile", "name": self.name, "weights": list(self.weights), "bias": self.bias}


@lru_cache(maxsize=1)
def _net() -> Any:
    if not MODEL.is_file():  # pragma: no cover - the wheel ships it

        raise AssistantError(_("the occupancy model {MODEL} is missing from the installation; reinstall the package").format(MODEL=MODEL))
    return cv2.dnn.readNetFromONNX(str(MODEL))


@lru_cache(maxsize=1)
def last_layer() -> tuple[np.ndarray, float]:
    """The shipped last layer (32 weights, bias), for ``photo adapt`` to start from."""
    meta = json.loads((MODEL_DIR / "occupancy.json").read_text(encoding="utf-8"))
    return np.array(meta["last_weights"], np.float32), float(meta["last_bias"])


VIEWS = 2


def _views(batch: np.ndarray) -> np.ndarray:
    """The crops as they are and turned half round (N*2, ...): a square looks the same whichever
    way the camera faced, so the classifier is asked twice. On 40 held-out photos (5,937
    squares) one view got 60 squares wrong, two 49, four turns 48, all eight turns and flips 49:
    two views give nearly all of the gain at a quarter of the cost of eight."""
    return np.concatenate([batch, np.rot90(batch, 2, axes=(1, 2))])


def features_and_logits(batch: np.ndarray, views: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The hidden layer's outputs (N, 32) and the calibrated logits (N,) for crops (N, CROP, CROP, 3).

    With ``views`` (the default) the hidden outputs are averaged over :func:`_views` of each crop;
    the last layer is linear, so the logit is that of the average."""
    if len(batch) == 0:
        return np.zeros((0, 32), np.float32), np.zeros(0, np.float32)
    n = len(batch)
    x = _views(batch) if views else batch
    net = _net()
    hidden_parts = []
    for i in range(0, len(x), 1024):  # bounded blobs: a 100 x 100 map is 80,000 crops
        net.setInput(np.ascontiguousarray(x[i:i + 1024].transpose(0, 3, 1, 2) - 0.5, dtype=np.float32))
        hidden_parts.append(net.forward("hidden").reshape(-1, 32))
    hidden = np.concatenate(hidden_parts)
    if views:
        hidden = hidden.reshape(VIEWS, n, -1).mean(axis=0)
    w, b = last_layer()
    return hidden, hidden @ w + b


def square_probabilities(image: np.ndarray, grid: Grid, cols: int, rows: int,
                         profile: TableProfile | None = None) -> dict[str, float]:
    """P(a base stands on the square), per square name."""
    view = board_view(image, grid, cols, rows)
    hidden, logit = features_and_logits(crops(view, cols, rows))
    if profile is not None:
        logit = hidden @ np.array(profile.weights, np.float32) + profile.bias
    p = 1.0 / (1.0 + np.exp(-np.clip(logit, -30, 30)))
    names = [Square(c, r).name for r in range(rows) for c in range(cols)]
    return {n: float(v) for n, v in zip(names, p, strict=True)}


def square_labels(pos: Any) -> np.ndarray:
    """1 where the position has a base, row by row (the order of :func:`crops`)."""
    occupied = {(s.col, s.row) for f in pos.figures for s in f.space}
    return np.array([(c, r) in occupied for r in range(pos.map.rows) for c in range(pos.map.cols)], np.float32)


def adapt(samples: list[tuple[np.ndarray, Grid, Any]], name: str = "", prior: float = 4.0) -> tuple[TableProfile, dict[str, int]]:
    """Refit the last layer on photos of one's own table whose positions are known.

    ``samples``: (photo, grid, position) triples. The shipped weights are the prior: the fit
    minimises the log loss plus ``prior`` times the squared distance from them (Newton's
    method on 33 numbers), so two photos cannot unlearn the rest. Returns the profile and the
    squares wrong before and after, on the photos given."""
    feats, labels, shipped = [], [], []
    for image, grid, pos in samples:
        hidden, logit = features_and_logits(crops(board_view(image, grid, pos.map.cols, pos.map.rows), pos.map.cols, pos.map.rows))
        feats.append(hidden)
        labels.append(square_labels(pos))
        shipped.append(logit)
    X = np.concatenate(feats).astype(np.float64)
    y = np.concatenate(labels).astype(np.float64)
    w0, b0 = last_layer()
    theta0 = np.concatenate([w0, [b0]]).astype(np.float64)
    A = np.column_stack([X, np.ones(len(X))])
    theta = theta0.copy()
    for _step in range(60):
        z = A @ theta
        q = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        grad = A.T @ (q - y) + 2 * prior * (theta - theta0)
        hess = (A * (q * (1 - q))[:, None]).T @ A + 2 * prior * np.eye(len(theta))
        step = np.linalg.solve(hess, grad)
        theta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    before = int(np.sum((np.concatenate(shipped) >= 0) != (y > 0)))
    after = int(np.sum(((A @ theta) >= 0) != (y > 0)))
    profile = TableProfile(tuple(float(v) for v in theta[:-1]), float(theta[-1]), name)
    return profile, {"squares": len(y), "bases": int(y.sum()), "wrong_before": before, "wrong_after": after}


def load_profile(path: Path) -> TableProfile:
    """A table profile written by ``photo adapt``; anything else is refused, naming the file."""

    try:
        data = json.loads(read_limited(path, MAX_PROFILE_BYTES).decode("utf-8"))
    except FileNotFoundError:
        raise AssistantError(_("no such table profile: {path}").format(path=path)) from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # RecursionError: JSON nested thousands deep
        raise AssistantError(_("{path} is not a table profile ({error}: {exc})").format(path=path, error=type(exc).__name__, exc=exc)) from None
    hidden = len(last_layer()[0])
    if not isinstance(data, dict) or data.get("kind") != "occupancy-table-profile":
        raise AssistantError(_("{path} is not a table profile (no \"kind\": \"occupancy-table-profile\"); make one with 'photo adapt'").format(path=path))
    w, b = data.get("weights"), data.get("bias")
    if (not isinstance(w, list) or len(w) != hidden or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in w)
            or not isinstance(b, (int, float)) or isinstance(b, bool) or not np.all(np.isfinite(np.array([*w, b], np.float64)))):
        raise AssistantError(
            _("{path}: a table profile needs {hidden} finite 'weights' and a finite 'bias'; make it again with 'photo adapt'").format(path=path, hidden=hidden)
        )
    return TableProfile(tuple(float(v) for v in w), float(b), str(data.get("name", "")))
