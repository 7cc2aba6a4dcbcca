"""Benchmark: photos compared with the empty map's reference photo, against the learned classifier alone.

    python bench/photo_reference.py [--n 20] [--width 2400]

For each of ``--n`` held-out seeds (3,200,000 up; tools/fit_bases.py fits on 3,100,000 up,
bench/photo.py uses 2,000,000 up, tools/train_occupancy.py below 2,000,000): a random map and
roster in a random real-table look (printed art on about 7 in 10, plain paper otherwise), then

- the reference: the EMPTY map, photographed by one camera under one light and white balance,
  from at most ``--ref-tilt`` (25) degrees off vertical -- taken once, with care, at set-up;
- the game photo: the same map (``render_photo(..., look_seed=)``) with the figures, taken by
  another camera (seed + 1,000,000) under another light and white balance, 0-50 degrees;
- ``--dark-patches N``: N round dark patches the size of a base printed on each map, none under
  a base (an art map's dark details that look like bases);
- (a pair whose reference photo is refused -- the empty map without corner markers, whose
  orientation nothing tells -- is left out of both modes and counted);
- the record OUT OF DATE: about half the figures moved 1-6 squares since (the photo shows where
  they stand now; the detector is handed the old record, never the true position).

``--families held-out``: the maps' floors drawn only from the families no training saw
(:data:`assistant.photo.scenery.HELD_OUT_FAMILIES`: sand, lava, grate, cells); ``train``: the
training families; default: the original two looks.

``detect`` runs twice on the same photo and record: with the reference (the classifier and the
comparison fused, :func:`assistant.photo.bases.fused_probabilities`), and without it (the
learned classifier). "Vision alone" is each square read as occupied where its probability is at
least 0.5 (the fused reading, or the classifier), before detect's rules and roster; the row
"comparison alone" is the reference comparison by itself (what the reference mode answered
before the fusion), vision only. Reported overall and for printed-art and plain maps: squares wrong (of all
squares), boards fully right, boards right after confirming at most 5 listed squares (every
wrong square listed, no more than 5 listed), moved figures reported at their photo square, moved
figures reported at their OLD recorded square silently ("old!": ``photo check`` agrees with the
record there -- the verdict ``agree``, as ``bench/photo.py`` counts them -- and the square is not
among the listed ones; "old?": at the old square and not among the 5 listed squares, though
``photo check`` may call it uncertain), seconds a photo (detection
only, one process). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from dataclasses import replace
from typing import Any

import numpy as np

from assistant.coords import Square
from assistant.editions import SquareTerrain
from assistant.model import Position
from assistant.photo import NoGridError, detect, locate_grid
from assistant.photo.bases import fused_probabilities, reference_probabilities
from assistant.photo.compare import compare
from assistant.photo.occupancy import square_probabilities
from assistant.photo.reference import Reference, make_reference
from assistant.photo.scenery import HELD_OUT_FAMILIES, TRAIN_FAMILIES
from assistant.photo.synth import random_position, render_photo

SEED = 3_200_000
GAME_CAMERA = 1_000_000


class Tally:
    def __init__(self) -> None:
        self.photos = self.squares = self.wrong = self.fully = self.confirmed = self.refused = 0
        self.moved = self.moved_right = self.moved_silent_old = self.moved_old_unlisted = self.listed = 0
        self.vision_wrong = self.vision_fully = 0
        self.seconds: list[float] = []

    def line(self, label: str) -> str:
        if not self.photos:
            return f"  {label:<28} -"
        if not self.seconds:  # vision only
            return f"  {label:<28} {self.photos:>4} {100 * self.vision_wrong / max(1, self.squares):8.3f} % {100 * self.vision_fully / self.photos:7.1f} %"
        return (f"  {label:<28} {self.photos:>4} {100 * self.vision_wrong / max(1, self.squares):8.3f} % {100 * self.vision_fully / self.photos:7.1f} % "
                f"{100 * self.wrong / max(1, self.squares):8.3f} % {100 * self.fully / self.photos:7.1f} % "
                f"{100 * self.confirmed / self.photos:7.1f} %  {self.listed / self.photos:6.1f}  {self.moved_right:>4}/{self.moved:<4} "
                f"{self.moved_silent_old:>4} {self.moved_old_unlisted:>4}  {self.refused:>4}  {statistics.mean(self.seconds) if self.seconds else 0:.2f}")


def out_of_date(pos: Position, rng: np.random.Generator) -> tuple[Position, set[str]]:
    """The record as it stood a turn or two ago: about half the figures elsewhere (1-6 squares
    from where they stand now, on free squares they may stand on). Returns it and the ids moved."""
    m = pos.map
    blocked = {s for k in (SquareTerrain.WALL, SquareTerrain.PIT) for s in m.squares.get(k, ())}
    taken = {s for f in pos.figures for s in f.space}
    figures, moved = [], set()
    for f in pos.figures:
        if rng.random() < 0.5:
            n = f.size.footprint
            for _ in range(40):
                dc, dr = (int(x) for x in rng.integers(-6, 7, size=2))
                if not 1 <= max(abs(dc), abs(dr)) <= 6:
                    continue
                c, r = f.at.col + dc, f.at.row + dr
                if not (0 <= c <= m.cols - n and 0 <= r <= m.rows - n):
                    continue
                space = {Square(c + i, r + j) for i in range(n) for j in range(n)}
                if space & (blocked | (taken - set(f.space))):
                    continue
                taken = (taken - set(f.space)) | space
                f = replace(f, at=Square(c, r))
                moved.add(f.id)
                break
        figures.append(f)
    return replace(pos, figures=tuple(figures)), moved


def empty_map_reference(pos: Position, record: Position, camera_seed: int, tilt_max: float, name: str, **kw: Any) -> Reference | None:
    """The empty-map reference a judge takes at set-up: ``pos``'s map without its figures, rendered
    with ``kw`` (``look_seed`` there names the map's art, the same as the game photo's) by the
    camera, light and white balance of ``camera_seed``, at most ``tilt_max`` degrees off vertical;
    its grid found as ``detect`` finds one, from ``record``'s map (never the true squares: the
    empty map has no figures). None when the photo is refused (the empty map without corner
    markers, whose orientation nothing tells). Shared by this bench and ``bench/photo.py
    --reference``."""
    ref_img, _t = render_photo(replace(pos, figures=()), seed=camera_seed, tilt_max=tilt_max, **kw)
    try:
        grid = locate_grid(ref_img, replace(record, figures=()))[0]
    except NoGridError:
        return None
    return make_reference(ref_img, grid, pos.map.cols, pos.map.rows, name)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--dark-patches", type=int, default=0, help="base-sized dark patches printed on each map (art that looks like a base)")
    ap.add_argument("--ref-tilt", type=float, default=25.0, help="the reference photo's camera, at most this far off vertical (degrees)")
    ap.add_argument("--families", choices=("legacy", "train", "held-out"), default="legacy",
                    help="the maps' floor families: the original two looks, the training families, or the held-out ones")
    a = ap.parse_args()
    families = {"legacy": None, "train": TRAIN_FAMILIES, "held-out": HELD_OUT_FAMILIES}[a.families]
    tallies: dict[tuple[str, str], Tally] = collections.defaultdict(Tally)
    no_reference: list[int] = []
    for i in range(a.n):
        seed = SEED + i
        rng = np.random.default_rng(seed)
        pos = random_position(rng, busy=bool(rng.random() < 0.5))
        corners = bool(rng.random() < 0.8)
        kw = dict(width=a.width, height=a.width * 3 // 4, varied=True, stickers=True, look_seed=seed, corner_markers=corners,
                  corner_side=float(rng.uniform(0.45, 1.3)), base_side=float(rng.uniform(0.3, 0.6)), dark_patches=a.dark_patches, families=families)
        img, truth = render_photo(pos, seed=seed + GAME_CAMERA, tilt_max=50.0, **kw)  # type: ignore[arg-type]
        record, moved = out_of_date(pos, rng)
        art = "art map" if truth.conditions["art"] else "plain paper"
        cols, rows = pos.map.cols, pos.map.rows
        ref = empty_map_reference(pos, record, seed, a.ref_tilt, f"ref{i}", **kw)
        if ref is None:
            # the empty map without corner markers: its grid's orientation cannot be told (no
            # figures, too little terrain). Both modes leave this pair out, so that they are
            # compared on the same photos
            no_reference.append(i)
            print(f"photo {i} ({art}): the reference photo was refused (no grid that can be trusted); left out of both modes", flush=True)
            continue
        for mode in ("reference", "classifier"):
            try:
                t0 = time.perf_counter()
                res = detect(img, record, f"game{i}", reference=ref if mode == "reference" else None)
                secs = time.perf_counter() - t0
                # what vision alone says (p >= 0.5), before detect's rules and roster: not timed
                grid = locate_grid(img, record, reference=ref if mode == "reference" else None)[0]
                p = square_probabilities(img, grid, cols, rows)
                compared: set[str] = set()
                if mode == "reference":
                    compared = {sq for sq, v in reference_probabilities(img, grid, ref).items() if v >= 0.5}
                    p = fused_probabilities(img, grid, ref, p)
                vision = {sq for sq, v in p.items() if v >= 0.5}
            except NoGridError:
                res, secs, vision, compared = None, 0.0, set(), set()
            if mode == "reference" and res is not None:
                for key in ("all", art):
                    c = tallies[("comparison", key)]
                    c.photos += 1
                    c.squares += cols * rows
                    c.vision_wrong += len(compared ^ truth.occupied)
                    c.vision_fully += compared == truth.occupied
            for key in ("all", art):
                t = tallies[(mode, key)]
                t.photos += 1
                if res is None:
                    t.refused += 1
                    continue
                t.seconds.append(secs)
                wrong = set(res.occupied) ^ truth.occupied
                listed = {u["square"] for u in res.uncertain}
                t.squares += cols * rows
                t.vision_wrong += len(vision ^ truth.occupied)
                t.vision_fully += vision == truth.occupied
                t.wrong += len(wrong)
                t.fully += not wrong
                t.confirmed += wrong <= listed and len(listed) <= 5
                t.listed += len(listed)
                at = {f.id: f.at for f in res.figures}
                verdict = {r.figure: r.verdict for r in compare(record, res).rows if r.figure}
                for fid in moved:
                    t.moved += 1
                    t.moved_right += at.get(fid) == truth.figures[fid]
                    old = record.figure(fid).at.name
                    t.moved_old_unlisted += at.get(fid) == old and old not in listed
                    t.moved_silent_old += at.get(fid) == old and old not in listed and verdict[fid] == "agree"
        print(f"photo {i} ({art}, {'corner markers' if corners else 'no corner markers'}): done", flush=True)
    print(f"\n{a.n} held-out photo pairs, {a.width} px wide, floors: {a.families}, {a.dark_patches} dark patches a map;"
          f" the record out of date (about half the figures moved); "
          f"{len(no_reference)} left out, their reference photo refused (photos {', '.join(map(str, no_reference)) or '-'})")
    print(f"  {'':<33} {'vision alone':>19} {'detect (with the record)':>28}")
    print(f"  {'mode / maps':<28} {'n':>4} {'sq wrong':>10} {'fully':>9} {'sq wrong':>10} {'fully':>9} {'confirm<=5':>9} {'listed':>6} {'moved ok':>9} "
          f"{'old!':>4} {'old?':>4} {'refused':>7} {'s':>5}")
    labels = {"reference": "with reference", "comparison": "comparison alone", "classifier": "no reference"}
    for mode in ("reference", "comparison", "classifier"):
        for key in ("all", "art map", "plain paper"):
            print(tallies[(mode, key)].line(f"{labels[mode]}: {key}"))


if __name__ == "__main__":
    main()
