"""Diagnosis: how clearly the printed grid lines stand over the art in the independent renderer's
photos, measured through the renderer's own lattice (its camera and lens). Prints one line a
photo; asserts nothing, and nothing here reaches the detector.

    python bench/photo_grid_contrast.py 407-418 --cache /tmp/grid9/cache [--empty]

The scenes are rendered as ``bench/photo_grid.py --independent`` renders them (into ``--cache``
once, read from there after). Per photo, for the columns' lines and the rows' lines: the grey
level on the line less the mean of the art a quarter of a square either side (the median over
every line, along its length: positive, a line lighter than the art; negative, darker), the art's
own spread between the lines (the median absolute deviation, grey levels), and the halo (the
flanks a line's width beside it less the art there: a line drawn dark beside light halos reads
as two light lines to a search of the wrong polarity). Round 9 read this way why photos 411 and
413-416 were refused without corner markers: their lines stand 3-5 grey levels off an art that
varies by 10-40, where the crossings' windows look for 6 and more.

Independent seeds 751-764 are held out for the final measurement and refused here."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from assistant.photo import load_image
from assistant.position import load_position

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "independent"))
import render  # the independent renderer lives beside this script, not in the package
from photo_grid import HELD_OUT_INDEPENDENT, _seeds, independent_truth

#: pixels a square of the top view the lines are measured in (the full photo's detail kept:
#: a square is 100-250 px in the 4,000-px photos)
SIDE = 128


def line_contrast(gray: np.ndarray, to_photo_px: np.ndarray, cols: int, rows: int) -> list[tuple[float, float, float]]:
    """Per axis (columns' lines, rows' lines): (line less art, art spread, halo), grey levels.
    ``to_photo_px``: for every top-view pixel (``rows`` x ``cols`` squares of :data:`SIDE`), its
    place in the photo (x, y), as the renderer's camera and lens put it."""
    top = cv2.remap(gray, to_photo_px[..., 0], to_photo_px[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    out = []
    reach, halo = SIDE // 4, max(2, SIDE // 40)
    for axis, n in ((0, cols), (1, rows)):
        view = top if axis == 0 else top.T
        profiles = np.array([np.median(view[:, k * SIDE - reach:k * SIDE + reach + 1], axis=0) for k in range(1, n)])
        p = np.median(profiles, axis=0)
        centre = reach
        art = float((p[0] + p[-1]) / 2)
        line = float(p[centre - 1:centre + 2].max() if p[centre] > art else p[centre - 1:centre + 2].min())
        flanks = float((p[centre - halo - 1] + p[centre + halo + 1]) / 2)
        between = view[:, SIDE // 4:SIDE * 3 // 4].ravel()
        spread = float(np.median(np.abs(between - np.median(between))))
        out.append((line - art, spread, flanks - art))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("seeds", help="independent renderer seeds, e.g. 407-418 (751-764 are held out)")
    ap.add_argument("--cache", default="/tmp/photo_grid_indep")
    ap.add_argument("--width", type=int, default=4000)
    ap.add_argument("--empty", action="store_true", help="the empty-map photos, not the game photos")
    args = ap.parse_args()
    seeds = _seeds(args.seeds)
    held = [s for s in seeds if s in HELD_OUT_INDEPENDENT]
    if held:
        raise SystemExit(f"independent seeds {held[0]}-{held[-1]} are held out for the final measurement: not rendered here")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        scene = render.make_scene(seed, args.width)
        stem = cache / f"s{seed:04d}_{args.width}"
        photo = Path(f"{stem}{'.empty' if args.empty else ''}.jpg")
        if not photo.exists() or not Path(f"{stem}.record.yaml").exists():
            render.write_scene(scene, cache, stem.name)
        pos = load_position(Path(f"{stem}.record.yaml"))
        cols, rows = pos.map.cols, pos.map.rows
        gray = cv2.cvtColor(load_image(photo), cv2.COLOR_BGR2GRAY)
        ys, xs = np.mgrid[0:rows * SIDE, 0:cols * SIDE].astype(np.float64)
        board = np.stack([xs.ravel() / SIDE, ys.ravel() / SIDE], axis=1)
        to_photo = independent_truth(scene, empty=args.empty)(board).reshape(rows * SIDE, cols * SIDE, 2).astype(np.float32)
        (lc, sc, hc), (lr, sr, hr) = line_contrast(gray, to_photo, cols, rows)
        look = scene.look
        print(f"s{seed:04d} {look.floor:<7} corners {look.corner_ids} {cols}x{rows} lines rgb {look.grid_rgb} {look.grid_width_mm:.2f} mm "
              f"alpha {look.grid_alpha:.2f} | columns {lc:+6.1f} over art spread {sc:4.1f} halo {hc:+5.1f} | "
              f"rows {lr:+6.1f} over art spread {sr:4.1f} halo {hr:+5.1f}", flush=True)


if __name__ == "__main__":
    main()
