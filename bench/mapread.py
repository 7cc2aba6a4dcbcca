"""Benchmark: the map's terrain from photos of empty printed maps (``map from-photo``).

    nice -n 10 python bench/mapread.py [--n 20] [--width 2400] [--start 0]

Held-out generated photos (seeds 7,000,000 up; the occupancy training never uses them): random
maps and the bundled example maps, each in a random real-table look (plain paper or printed art,
faint lines, white balance, camera 0-50 degrees), the terrain printed in a random style (borders
just inside the squares or right on the grid lines, one border per square or one around a whole
area, brown or dark fill under walls and low objects, sand/lava/metal/moss/night floor washes),
with corner markers on every other photo. Nothing of the truth is handed to the reader: it gets the
photo and the map's size, as ``map from-photo`` does.

Without corner markers the map's orientation cannot be told from an empty map (the reader takes
the photo's top as row 1 and says so); the squares are scored through the rotation of the map that
matches best (a judge turns the file once), and how often the photo's top was right is reported.
The reader's thresholds were set while looking at photos 0-19; ``--start 20`` measures photos it
was never tuned on. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

from assistant.coords import Edge, Square
from assistant.model import Position
from assistant.photo.scenery import draw_look
from assistant.photo.synth import draw_terrain_style, random_position, render_photo
from assistant.photo.terrain import read_map_photo
from assistant.position import load_position
from assistant.resources import example_files

KINDS = ("wall", "low", "difficult", "pit")


def _style(seed: int):
    """The look and terrain style render_photo(varied=True) draws for this seed (same generator, same order)."""
    rng = np.random.default_rng(seed + 7)
    look = draw_look(rng)
    return look, draw_terrain_style(rng)


def _rotations(cols: int, rows: int) -> list[int]:
    return [0, 1, 2, 3] if cols == rows else [0, 2]


def _rot_sq(c: int, r: int, k: int, cols: int, rows: int) -> tuple[int, int]:
    for _ in range(k):  # a quarter turn clockwise of a square map
        c, r = cols - 1 - r, c
    return c, r


def _rot_edge(e: Edge, k: int, cols: int, rows: int) -> Edge:
    (x0, y0), (x1, y1) = ((p.x, p.y) for p in e.endpoints)
    for _ in range(k):  # corner points turn (x, y) -> (cols - y, x)
        x0, y0, x1, y1 = cols - y0, x0, cols - y1, x1
    a, b = sorted([(x0, y0), (x1, y1)])
    if a[1] == b[1]:
        return Edge(int(a[0]), int(a[1]), "H")
    return Edge(int(a[0]), int(a[1]), "V")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--start", type=int, default=0, help="the first photo's number (20 and up: photos the reader was not tuned on)")
    args = ap.parse_args()
    examples = [load_position(p) for p in example_files()]
    examples = [p for p in examples if p.map.squares or p.map.walls]
    sq_total: collections.Counter = collections.Counter()
    sq_wrong: collections.Counter = collections.Counter()
    tp: collections.Counter = collections.Counter()
    fp: collections.Counter = collections.Counter()
    fn: collections.Counter = collections.Counter()
    refused = upright = unmarked = 0
    seconds: list[float] = []
    unsure_listed: list[int] = []
    wrong_listed = wrong_all = 0
    for i in range(args.start, args.start + args.n):
        seed = 7_000_000 + i
        rng = np.random.default_rng(seed)
        pos = examples[i // 2 % len(examples)] if i % 2 and examples else random_position(rng)
        m = pos.map
        empty = Position(pos.edition, m, (), pos.cards)
        markers = i % 4 < 2
        img, truth = render_photo(empty, seed=seed, width=args.width, height=args.width * 3 // 4, tilt_max=50.0, varied=True,
                                  corner_markers=markers, corner_side=float(rng.uniform(0.45, 1.3)))
        look, style = _style(seed)
        floor = ("art" if look.art else "plain") + ("/" + style.floor if style.floor else "")
        t0 = time.process_time()
        got = read_map_photo(img, m.cols, m.rows)
        seconds.append(time.process_time() - t0)
        if got is None:
            refused += 1
            continue
        reading = got.reading
        best = None
        for k in (_rotations(m.cols, m.rows) if not markers else [0]):
            sq = {}
            for name, kind in reading.squares.items():
                s = _parse_sq(name)
                c, r = _rot_sq(s.col, s.row, k, m.cols, m.rows) if m.cols == m.rows or k == 0 else (m.cols - 1 - s.col, m.rows - 1 - s.row)
                sq[Square(c, r).name] = kind
            ed = {}
            for name, kind in reading.edges.items():
                e = _parse_edge(name)
                ed[(_rot_edge(e, k, m.cols, m.rows) if m.cols == m.rows or k == 0 else _half_edge(e, m.cols, m.rows)).name] = kind
            wrong = sum(sq.get(Square(c, r).name) != truth.squares.get(Square(c, r).name) for c in range(m.cols) for r in range(m.rows))
            if best is None or wrong < best[0]:
                best = (wrong, k, sq, ed)
        assert best is not None
        wrong, k, sq, ed = best
        if not markers:
            unmarked += 1
            upright += k == 0
        sq_total[floor.split("/")[0]] += m.cols * m.rows
        sq_wrong[floor.split("/")[0]] += wrong
        sq_total[floor] += m.cols * m.rows
        sq_wrong[floor] += wrong
        wall_sq = {n for n, v in truth.squares.items() if v == "wall"}
        for c in range(m.cols):
            for r in range(m.rows):
                n = Square(c, r).name
                got_k, true_k = sq.get(n), truth.squares.get(n)
                for kind in KINDS:
                    tp[kind] += got_k == kind and true_k == kind
                    fp[kind] += got_k == kind and true_k != kind
                    fn[kind] += got_k != kind and true_k == kind
        for name in set(ed) | set(truth.edges):
            e = _parse_edge(name)
            if any(s.col >= 0 and s.row >= 0 and s.name in wall_sq for s in e.squares):
                continue  # the sides of wall squares block by the square itself
            got_k, true_k = ed.get(name), truth.edges.get(name)
            for kind in ("wall", "door"):
                tp["edge " + kind] += got_k == kind and true_k == kind
                fp["edge " + kind] += got_k == kind and true_k != kind
                fn["edge " + kind] += got_k != kind and true_k == kind
        unsure = getattr(reading, "unsure", None)
        if unsure is not None:
            unsure_listed.append(len(unsure))
            wrong_names = {Square(c, r).name for c in range(m.cols) for r in range(m.rows)
                           if sq.get(Square(c, r).name) != truth.squares.get(Square(c, r).name)}
            wrong_all += len(wrong_names)
            if k == 0:
                wrong_listed += len(wrong_names & set(unsure))
        print(f"  photo {i}: {m.cols}x{m.rows} {floor:<12} {style.place:<6} {'area' if style.area else 'square':<6} fill={style.fill or '-':<5} "
              f"markers={'yes' if markers else 'no ':<3} grid by {got.how:<7} squares wrong {wrong:>3}")
    print(f"map from-photo on {args.n} held-out photos (width {args.width}):")
    print("  squares wrong by floor:")
    for f in sorted(sq_total):
        print(f"    {f:<14} {sq_wrong[f]:>5} of {sq_total[f]:>6} = {100 * sq_wrong[f] / sq_total[f]:6.2f} %")
    print("  by kind:             precision   recall   (true / read)")
    for kind in (*KINDS, "edge wall", "edge door"):
        p = tp[kind] / max(1, tp[kind] + fp[kind])
        r = tp[kind] / max(1, tp[kind] + fn[kind])
        print(f"    {kind:<16} {100 * p:8.1f} % {100 * r:8.1f} %   ({tp[kind] + fn[kind]} / {tp[kind] + fp[kind]})")
    print(f"  refused: {refused}; without corner markers: {unmarked}, the photo's top was row 1's side on {upright}")
    if unsure_listed:
        print(f"  listed to confirm: mean {np.mean(unsure_listed):.1f}, max {max(unsure_listed)} a photo; wrong squares listed {wrong_listed} of {wrong_all}")
    print(f"  seconds a photo (CPU, grid + reading): mean {np.mean(seconds):.2f}, max {max(seconds):.2f}")


def _parse_sq(name: str) -> Square:
    from assistant.coords import parse_square

    return parse_square(name)


def _parse_edge(name: str) -> Edge:
    from assistant.coords import parse_edge

    return parse_edge(name)


def _half_edge(e: Edge, cols: int, rows: int) -> Edge:
    (x0, y0), (x1, y1) = ((p.x, p.y) for p in e.endpoints)
    a, b = sorted([(cols - x0, rows - y0), (cols - x1, rows - y1)])
    return Edge(int(a[0]), int(a[1]), "H" if a[1] == b[1] else "V")


if __name__ == "__main__":
    main()
