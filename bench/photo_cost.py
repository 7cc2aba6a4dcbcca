"""Calibration: what each corner-marker search costs, in CPU seconds, against its work units.

    nice -n 10 python bench/photo_cost.py [--repeat 2]

The grid search's budget (``assistant/photo/budget.py``) decides from a cost model in work units
-- megapixels scanned and candidate quadrilaterals ArUco looked at -- never from the clock, so
the same photo gets the same answer however loaded the machine is. This script measured the
model's constants: each search (the first, the harder, the full-resolution and the enlarged
one) is run on photos of tables (generated, any floor family, with and without corner markers,
1600 to 4000 px) and on hostile images (bench/photo_budget.py's kinds), its CPU time taken as
the least of ``--repeat`` runs (``time.process_time``, every OpenCV thread counted); then
the model is fitted by least squares on the relative error (no intercept) and printed with the ratio of measured to
modelled cost: for the harder searches ``seconds = a * photo MP + b * MP scanned + c * kilo-
candidates + d * kilo-candidates squared`` (ArUco's work grows with the square of its candidates),
for the first search ``a' * photo MP`` beside the same candidate terms. Noise is searched only by
the first and the harder search (the enlarged one would take minutes; the grid search never runs
them on noise, whose structure is refused first). Asserts nothing. The constants in
``assistant/photo/budget.py`` come from one run of this script (2026-11, round 3 of issue 28, load
average about 3 on 2 cores); a second run with the machine far busier (load average 12) measured
up to 2.6 times the CPU-seconds on the candidate-heavy searches (62 s on noise against 23.5 s):
CPU time is not a property of the image, which is why the budget counts work instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from assistant.photo.markers import MAX_SIDE, find_markers_counted  # noqa: E402
from assistant.photo.synth import random_position, render_photo  # noqa: E402


def images() -> list[tuple[str, np.ndarray]]:
    from photo_budget import KINDS

    out = []
    for i, (w, fam, corners) in enumerate([(1600, "grate", True), (2400, "sand", True), (2400, "grate", False), (4000, "cells", True),
                                            (4000, "lava", False), (2000, None, True)]):
        rng = np.random.default_rng(7000 + i)
        pos = random_position(rng)
        img, _t = render_photo(pos, seed=7000 + i, width=w, height=w * 3 // 4, tilt_max=40.0, varied=True,
                               families=(fam,) if fam else None, corner_markers=corners, corner_side=0.6, stickers=True)
        out.append((f"photo {w} {fam or 'train'}{'' if corners else ' no corners'}", img))
    for kind in ("text page", "carpet", "pebbles", "table no map", "chessboard", "noise x8"):
        out.append((kind, KINDS[kind](4000, 3000)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    rows: list[tuple[str, str, float, int, float, float]] = []
    for name, img in images():
        mp = img.shape[0] * img.shape[1] / 1e6
        shrunk = mp * min(1.0, MAX_SIDE / max(img.shape[:2])) ** 2
        enlarge = min(2.0, float(np.sqrt(24e6 / (mp * 1e6))))
        passes = [("first", False, False, 1.0, shrunk), ("harder", True, False, 1.0, shrunk)]
        if name.startswith("noise"):
            passes = passes[:2]
        elif shrunk < mp:
            passes.append(("harder", True, True, 1.0, mp))
        if enlarge >= 1.25 and not name.startswith("noise"):
            passes.append(("enlarged", True, True, enlarge, mp * enlarge ** 2))
        for kind, small, full, up, scanned in passes:
            best, cand = 1e9, 0
            for _ in range(a.repeat):
                t0 = time.process_time()
                _found, cand = find_markers_counted(img, small_markers=small, full_resolution=full, upscale=up)
                best = min(best, time.process_time() - t0)
            rows.append((name, kind, scanned, cand, best, mp))
            print(f"  {name:<28} {kind:<9} {scanned:6.2f} MP {cand:6d} candidates {best:6.3f} s", flush=True)
    harder = [r for r in rows if r[1] != "first"]
    A = np.array([[r[5], r[2], r[3] / 1000, (r[3] / 1000) ** 2] for r in harder], np.float64)
    y = np.array([r[4] for r in harder], np.float64)
    a, b, c, d = np.linalg.lstsq(A / y[:, None], np.ones(len(y)), rcond=None)[0]  # least relative error: 0.07 s and 23 s alike
    ratio = y / (A @ [a, b, c, d])
    print(f"harder searches: seconds = {a:.4f} * photo MP + {b:.4f} * MP scanned + {c:.4f} * kcand + {d:.4f} * kcand^2; "
          f"measured / modelled {ratio.min():.2f}-{ratio.max():.2f}")
    first = [r for r in rows if r[1] == "first"]
    rest = np.array([r[4] - c * r[3] / 1000 - d * (r[3] / 1000) ** 2 for r in first])
    per_mp = float(np.sum(rest * [r[5] for r in first]) / np.sum([r[5] ** 2 for r in first]))
    model = np.array([per_mp * r[5] + c * r[3] / 1000 + d * (r[3] / 1000) ** 2 for r in first])
    ratio = np.array([r[4] for r in first]) / model
    print(f"first search: seconds = {per_mp:.4f} * photo MP + the same candidate terms; measured / modelled {ratio.min():.2f}-{ratio.max():.2f}")

if __name__ == "__main__":
    main()
