"""Diagnosis: three corner markers and the sheet's outline (reading R202). Asserts nothing.

    python bench/photo_grid_fourth.py [SEED ...]        (default: every diagnosis seed 341-574)

For each diagnosis scene already rendered under /work/diag19 (``--root``), the game photo and the
empty-map photo: the corner markers the default search reads; where it reads three, those three,
and where it reads four, every three of them (one dropped on purpose; its sticker stays in the
photo). Each such three gives the markers' grid (:func:`assistant.photo.board.find_grid`), and
:func:`assistant.photo.lines.outline_fourth_corner` is asked for the fourth corner. One line a case:
the markers' grid's error and predicted uncertainty, R202's grid's error (``-`` where it gives
none), its CPU seconds, and each sheet outline matched to the map's corners: the spread of its six
margin measures, the margin, its grid's error, how far it moves the markers' corners, and how far
its fourth corner lies from the markers' extrapolation. Errors are scored against the independent
renderer's own lattice (``bench/independent/render.py``), which the code under test never sees.
Independent seeds 575-600 are held out and refused here."""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from assistant.photo import lines, load_image
from assistant.photo.board import NotAMapError, anchor_offset, find_grid
from assistant.photo.markers import find_markers
from assistant.position import load_position

sys.path.insert(0, str(Path(__file__).resolve().parent / "independent"))
import render  # the independent renderer lives beside this script, not in the package

HELD_OUT_INDEPENDENT = range(575, 601)
UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


def _outlines(img: np.ndarray, grid: lines.Grid, three: list, cols: int, rows: int, scene: render.Scene, empty: bool) -> list[str]:
    pinned = lines._pinned_corners(grid, cols, rows, 3)
    if pinned is None:
        return []
    board4, known, free = pinned
    outward = np.sign(board4 - board4.mean(axis=0))
    said = []
    for corners, _on_board in lines._outlines_at_map_corners(img, grid, three, board4):
        frame = cv2.getPerspectiveTransform(corners.astype(np.float32), UNIT.astype(np.float32)).astype(np.float64)
        seen = np.array([known[k] for k in known])
        measures = lines.frame_margins(frame, seen, [board4[k] for k in known], cols, rows)
        if measures is None:
            continue
        margin = float(np.median(measures))
        spread = float(np.max(np.abs(np.array(measures) - margin)))
        H, _mask = cv2.findHomography(np.vstack([seen, corners]), np.vstack([np.array([board4[k] for k in known]), board4 + margin * outward]), 0)
        if H is None:
            continue
        there = cv2.perspectiveTransform(board4[free][None], np.linalg.inv(H))[0]
        apart = float(np.max(np.linalg.norm(cv2.perspectiveTransform(there[None], grid.H)[0] - board4[free], axis=1)))
        said.append(f"sp {spread:.3f} m {margin:.2f} err {render.grid_error(H, scene, empty=empty):.3f} anch {anchor_offset(grid, H):.3f} "
                    f"apart {apart:.3f}")
    return said


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", nargs="*", type=int)
    ap.add_argument("--root", default="/work/diag19")
    args = ap.parse_args()
    seeds = args.seeds or list(range(341, 575))
    if any(s in HELD_OUT_INDEPENDENT for s in seeds):
        raise SystemExit("independent seeds 575-600 are held out for the final measurement")
    answered, cases, worst = 0, 0, 0.0
    for seed in seeds:
        found = sorted(Path(args.root).glob(f"d*/s{seed:04d}.jpg"))
        if not found:
            continue
        stem = found[0].with_suffix("")
        scene = render.make_scene(seed, 4000)
        pos = load_position(Path(f"{stem}.record.yaml"))
        cols, rows = pos.map.cols, pos.map.rows
        for which, path in (("photo", Path(f"{stem}.jpg")), ("empty", Path(f"{stem}.empty.jpg"))):
            empty = which == "empty"
            img = load_image(path)
            read = find_markers(img)
            corners = [m for m in read if m.id <= 3]
            if len({m.id for m in corners}) < 3:
                continue
            others = [m for m in read if m.id > 3]
            for three in itertools.combinations(corners, 3):
                dropped = sorted({m.id for m in corners} - {m.id for m in three})
                try:
                    grid = find_grid(list(three) + others, cols, rows)
                except NotAMapError:
                    continue
                if grid is None or grid.corner_markers != 3:
                    continue
                t0 = time.process_time()
                got = lines.outline_fourth_corner(img, grid, list(three), cols, rows)
                cpu = time.process_time() - t0
                err = render.grid_error(got.H, scene, empty=empty) if got is not None else None
                cases += 1
                if err is not None:
                    answered += 1
                    worst = max(worst, err)
                print(f"s{seed:04d} {which} drop {dropped} markers err {render.grid_error(grid.H, scene, empty=empty):.3f} "
                      f"unc {grid.uncertainty:.3f} R202 {'-' if err is None else f'{err:.3f}'} cpu {cpu:.2f} | "
                      + " ; ".join(_outlines(img, grid, list(three), cols, rows, scene, empty)), flush=True)
    print(f"{cases} cases, R202 answered {answered}, worst {worst:.3f} squares off")


if __name__ == "__main__":
    main()
