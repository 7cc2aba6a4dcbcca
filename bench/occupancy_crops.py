"""Benchmark: the occupancy classifier alone, on held-out texture families. Prints numbers; asserts nothing.

    python bench/occupancy_crops.py [--n 40] [--width 1600] [--looks held-out|original] [MODEL.onnx ...]

Photos are generated from seeds the training never uses (2,000,000 up for the held-out families
and camera, 3,000,000 up for the original two looks) and cut into the classifier's crops at the
grid the generator drew (the grid search is the bench's, bench/photo.py; this isolates the
classifier). The true occupancy only scores the answers. For each model (default: the shipped
one): squares wrong at 0.5, false occupied, missed, those wrong outside detect's uncertain band
(0.15-0.85), and the error by floor family. ``detect`` adds the rules model and the roster count
on top, so its error is lower; this is what the classifier carries over by itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.photo.board import Grid  # noqa: E402 (the checkout first on the path)
from assistant.photo.occupancy import MODEL, board_view, crops  # noqa: E402
from assistant.photo.scenery import HELD_OUT_CAMERA, HELD_OUT_FAMILIES  # noqa: E402
from assistant.photo.synth import random_position, render_photo  # noqa: E402


def held_out_crops(n: int, width: int, looks: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, fams = [], [], []
    first = 2_000_000 if looks == "held-out" else 3_000_000
    for i in range(n):
        seed = first + i
        rng = np.random.default_rng(seed)
        pos = random_position(rng, busy=True)
        kw = {"families": HELD_OUT_FAMILIES, "camera": HELD_OUT_CAMERA} if looks == "held-out" else {}
        img, truth = render_photo(pos, seed=seed, width=width, height=width * 3 // 4, tilt_max=50.0, varied=True, stickers=True, **kw)
        grid = Grid(np.linalg.inv(truth.homography), 0.0, 0)
        cols, rows = pos.map.cols, pos.map.rows
        xs.append(crops(board_view(img, grid, cols, rows), cols, rows))
        occupied = {(s.col, s.row) for f in pos.figures for s in f.space}
        ys.append(np.array([(c, r) in occupied for r in range(rows) for c in range(cols)]))
        fams += [str(truth.conditions["family"])] * cols * rows
    return np.concatenate(xs), np.concatenate(ys), np.array(fams)


def probabilities(model: Path, x: np.ndarray) -> np.ndarray:
    net = cv2.dnn.readNetFromONNX(str(model))
    out = []
    for i in range(0, len(x), 512):
        net.setInput(np.ascontiguousarray((x[i:i + 512].astype(np.float32) - 0.5).transpose(0, 3, 1, 2)))
        out.append(net.forward("logit").reshape(-1))
    return 1 / (1 + np.exp(-np.concatenate(out)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="*", type=Path, default=[MODEL])
    ap.add_argument("--n", type=int, default=40, help="photos")
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--looks", choices=("held-out", "original"), default="held-out")
    a = ap.parse_args()
    x, y, fams = held_out_crops(a.n, a.width, a.looks)
    print(f"{a.n} photos ({a.looks} looks, {a.width} px), {len(y)} squares, {int(y.sum())} with a base")
    for model in a.models:
        p = probabilities(model, x)
        wrong = (p >= 0.5) != y
        unlisted = wrong & (np.abs(p - 0.5) >= 0.35)
        by = ", ".join(f"{f} {100 * wrong[fams == f].mean():.2f} %" for f in sorted(set(fams)))
        print(f"  {model}: {100 * wrong.mean():.2f} % wrong ({int((wrong & ~y).sum())} false occupied, {int((wrong & y).sum())} missed), "
              f"{100 * unlisted.mean():.2f} % wrong and not listed; {by}")


if __name__ == "__main__":
    main()
