"""Diagnosis: how the grid is found (or not) on the held-out photos of ``bench/photo.py``.
Prints one line a photo; asserts nothing.

    python bench/photo_grid.py [--n 30] [--width 2400] [--cache DIR]

The photos are rendered exactly as ``bench/photo.py`` renders its held-out set (seeds 2,000,000
up, held-out floors and camera). Per photo: whether corner markers were drawn, the corner-marker
ids each search finds (the default search, then the harder, full-resolution and enlarged ones,
each run here whatever its cost), what :func:`assistant.photo.locate_grid` answers under its
work budget (the grid, or the stage that refused and why), and the grid's error against the
truth (the largest distance, in squares, of a lattice point from where it truly is)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from assistant.photo import NoGridError, locate_grid
from assistant.photo.budget import Budget
from assistant.photo.markers import find_markers, find_markers_counted
from assistant.photo.scenery import HELD_OUT_CAMERA, HELD_OUT_FAMILIES
from assistant.photo.synth import Truth, random_position, render_photo


def grid_error(H: np.ndarray, truth: Truth, cols: int, rows: int) -> float:
    pts = np.array([[x, y] for x in range(cols + 1) for y in range(rows + 1)], np.float64)
    back = cv2.perspectiveTransform(truth.photo_points(pts)[None], H)[0]
    return float(np.max(np.linalg.norm(back - pts, axis=1)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--cache", default="")
    ap.add_argument("--only-corners", action="store_true", help="skip photos drawn without corner markers")
    ap.add_argument("--load", type=float, default=1.0,
                    help="the budget is this many times smaller (it counts work, not time: a slower machine changes nothing)")
    ap.add_argument("--no-passes", action="store_true", help="skip the unbudgeted marker searches (only locate_grid)")
    args = ap.parse_args()
    for i in range(args.start, args.n):
        seed = 2_000_000 + i
        rng = np.random.default_rng(seed)
        pos = random_position(rng, busy=bool(rng.random() < 0.5))
        corners = bool(rng.random() < 0.8)
        base_side = float(rng.uniform(0.3, 0.6))
        corner_side = float(rng.uniform(0.45, 1.3))  # drawn after the base side, as bench/photo.py draws them
        if args.only_corners and not corners:
            continue
        w = args.width
        img, truth = render_photo(pos, seed=seed, width=w, height=w * 3 // 4, tilt_max=50.0, varied=True,
                                  corner_markers=corners, corner_side=corner_side, base_side=base_side, stickers=True,
                                  families=HELD_OUT_FAMILIES, camera=HELD_OUT_CAMERA)
        cols, rows = pos.map.cols, pos.map.rows
        c = truth.conditions
        found = sorted({m.id for m in find_markers(img) if m.id < 4})
        passes = []
        for full, up in ((False, 1.0), (True, 1.0), (True, 2.0)) if not args.no_passes else ():
            t0 = time.process_time()
            ms, cand = find_markers_counted(img, small_markers=True, full_resolution=full, upscale=up)
            passes.append(f"{sorted({m.id for m in ms if m.id < 4})}/{cand}/{time.process_time() - t0:.2f}s")
        t0 = time.process_time()
        budget = Budget(seconds=2.0 / args.load)
        try:
            grid, markers, by_lines = locate_grid(img, pos, budget=budget)
            ids = sorted({m.id for m in markers if m.id < 4})
            err = grid_error(grid.H, truth, cols, rows)
            outcome = f"{'LINES' if by_lines else 'markers'} {ids} err {err:.2f}{' WRONG' if err > 0.25 else ''}"
            outcome += f" (skipped: {', '.join(budget.skipped)})" if budget.skipped else ""
        except NoGridError as exc:
            outcome = f"REFUSED: {exc}"
        dt = time.process_time() - t0
        print(f"{i:3d} {c['family']:<8} tilt {c['tilt']:4.1f} corners {'yes' if corners else 'no '} side {corner_side:.2f} "
              f"{cols}x{rows} default {found} passes {' '.join(passes)} | {dt:.2f}s {outcome}", flush=True)
        if args.cache:
            cv2.imwrite(str(Path(args.cache) / f"held{i}.png"), img)


if __name__ == "__main__":
    main()
