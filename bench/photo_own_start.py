"""Diagnosis: corner markers' grid aligned on the empty-map reference's art (reading R307). Asserts nothing.

    python bench/photo_own_start.py FOLDER sNNNN [sNNNN ...]

For each scene of a ``bench/independent.py`` folder (its game photo, empty-map photo and record):
the reference made as ``photo reference`` makes it, the corner markers the default search reads
and their grid (:func:`assistant.photo.board.find_grid`), then that grid moved on purpose (0.15 to
1 square, along and across the map) and handed to :func:`assistant.photo.artgrid.grid_from_own_start`
as the start a refused search would hand it. One line a start: its error and the aligned grid's
(``None`` where none is taken). Errors are scored against the independent renderer's own lattice
(``bench/independent/render.py``), which the code under test never sees. Round 29 measured s0575,
s0580, s0607, s0641, s0645 (diagnosis) and s0650, s0652 (round 28's held-out set, now diagnosis):
starts 0.16-0.36 squares off aligned to 0.03-0.12 or given none; every start 0.5 squares off or
more given none. Independent seeds 751-764 are held out and refused here."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import independent as ind  # the renderer's scenes again from their seeds, to score against

from assistant.photo import load_image, reference_grid
from assistant.photo.artgrid import grid_from_own_start
from assistant.photo.board import find_grid
from assistant.photo.markers import find_markers
from assistant.photo.reference import make_reference
from assistant.position.load import load_position

HELD_OUT = range(751, 765)
#: the moves (squares east, south) given each markers' grid
MOVES = ((0.15, 0.0), (0.3, 0.0), (0.0, 0.3), (0.5, 0.0), (0.5, 0.5), (1.0, 0.0), (0.0, 1.0))


def main(argv: list[str]) -> int:
    folder, scenes = Path(argv[0]), argv[1:]
    for st in scenes:
        if int(st[1:]) in HELD_OUT:
            print(f"{st}: held out (seeds 751-764), not read", file=sys.stderr)
            continue
        img, empty = load_image(folder / f"{st}.jpg"), load_image(folder / f"{st}.empty.jpg")
        pos = load_position(folder / f"{st}.record.yaml")
        cols, rows = pos.map.cols, pos.map.rows
        scene = ind.render.make_scene(int(st[1:]), img.shape[1])
        grid, _markers, _by_lines = reference_grid(empty, pos, str(folder / f"{st}.empty.jpg"))
        ref = make_reference(empty, grid, cols, rows, f"{st}.empty.jpg")
        corner = [m for m in find_markers(img) if m.id < 4]
        base = find_grid(corner, cols, rows) if corner else None
        if base is None:
            print(f"{st}: no corner markers' grid ({sorted(m.id for m in corner)})")
            continue
        print(f"{st}: markers {sorted(m.id for m in corner)}, their grid {ind.render.grid_error(base.H, scene):.3f} squares off")
        for east, south in MOVES:
            start = replace(base, H=np.array([[1.0, 0.0, east], [0.0, 1.0, south], [0.0, 0.0, 1.0]]) @ base.H)
            got = grid_from_own_start(img, ref, [start], corner)
            print(f"  moved {east:.2f} east {south:.2f} south: {ind.render.grid_error(start.H, scene):.3f} -> "
                  + ("None" if got is None else f"{ind.render.grid_error(got.H, scene):.3f}"), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
