"""Diagnosis: how the grid is found (or not) on the held-out photos of ``bench/photo.py``.
Prints one line a photo; asserts nothing.

    python bench/photo_grid.py [--n 30] [--width 2400] [--cache DIR]

The photos are rendered exactly as ``bench/photo.py`` renders its held-out set (seeds 2,000,000
up, held-out floors and camera). Per photo: whether corner markers were drawn, the corner-marker
ids each search finds (the default search, then the harder, full-resolution and enlarged ones,
each run here whatever its cost), what :func:`assistant.photo.locate_grid` answers under its
work budget (the grid, or the stage that refused and why), and the grid's error against the
truth (the largest distance, in squares, of a lattice point from where it truly is).

    python bench/photo_grid.py --independent 341-352 [--width 4000] --cache DIR

does the same on the independent renderer's scenes (``bench/independent/render.py``, rendered
once into ``--cache`` and read from there after): the game photo without and with its empty-map
reference (the reference made as ``photo reference`` makes it, from the grid
:func:`assistant.photo.reference_grid` finds on the empty photo), the grid's error against the renderer's own camera and lens, and the
CPU seconds (``time.process_time``) of each ``locate_grid``. Independent seeds 751-764 are held
out for the final measurement and refused here; 341-734 are for diagnosis."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from assistant.photo import NoGridError, load_image, locate_grid, reference_grid
from assistant.photo.budget import Budget
from assistant.photo.markers import find_markers, find_markers_counted
from assistant.photo.reference import make_reference
from assistant.photo.scenery import HELD_OUT_CAMERA, HELD_OUT_FAMILIES
from assistant.photo.synth import Truth, random_position, render_photo
from assistant.position import load_position

sys.path.insert(0, str(Path(__file__).resolve().parent / "independent"))
import render  # the independent renderer lives beside this script, not in the package

sys.path.insert(0, str(Path(__file__).resolve().parent))
import independent as ind  # the black-box bench's scoring, beside this script


def grid_error(H: np.ndarray, truth: Truth, cols: int, rows: int) -> float:
    pts = np.array([[x, y] for x in range(cols + 1) for y in range(rows + 1)], np.float64)
    back = cv2.perspectiveTransform(truth.photo_points(pts)[None], H)[0]
    return float(np.max(np.linalg.norm(back - pts, axis=1)))


#: the independent renderer's seeds kept for the final measurement: never rendered by a diagnosis
HELD_OUT_INDEPENDENT = range(751, 765)


def _seeds(text: str) -> list[int]:
    """``341-352``, ``352,359,485`` or both mixed (``341-345,359``)."""
    seeds: list[int] = []
    for part in text.split(","):
        lo, _sep, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def independent(seeds: list[int], width: int, cache: Path) -> None:
    """One line a scene (see the module's docstring), then the totals."""
    held = [s for s in seeds if s in HELD_OUT_INDEPENDENT]
    if held:
        raise SystemExit(f"independent seeds {held[0]}-{held[-1]} are held out for the final measurement: not rendered here")
    cache.mkdir(parents=True, exist_ok=True)
    totals: dict[str, list[float]] = {"noref": [], "ref": []}
    refused = {"noref": 0, "ref": 0}
    wrong = {"noref": 0, "ref": 0}
    for seed in seeds:
        scene = render.make_scene(seed, width)
        stem = cache / f"s{seed:04d}_{width}"
        paths = {"photo": Path(f"{stem}.jpg"), "empty": Path(f"{stem}.empty.jpg")}
        if not all(p.exists() for p in paths.values()):
            written = render.write_scene(scene, cache, stem.name)
            paths = {"photo": written["photo"], "empty": written["empty"]}
        pos = load_position(Path(f"{stem}.record.yaml"))
        cols, rows = pos.map.cols, pos.map.rows
        img, empty = load_image(paths["photo"]), load_image(paths["empty"])
        ref = None
        ref_note = ""
        try:
            g_empty, _m, lines_e = reference_grid(empty, pos, "empty")  # as `photo reference` finds it
            e_err = ind.lens_grid_error(g_empty.H, g_empty.lens, scene, empty=True)
            ref_note = f"empty {'LINES' if lines_e else 'markers'} err {e_err:.2f}{' WRONG' if e_err > 0.25 else ''}"
            ref = make_reference(empty, g_empty, cols, rows, paths["empty"].name)
        except NoGridError as exc:
            ref_note = f"empty REFUSED ({str(exc)[:60]})"
        outcomes = []
        for mode, reference in (("noref", None), ("ref", ref)):
            if mode == "ref" and reference is None:
                outcomes.append("ref: no reference")
                refused["ref"] += 1
                continue
            t0 = time.process_time()
            try:
                grid, markers, by_lines = locate_grid(img, pos, "photo", reference=reference, straighten=True)  # as detect does
                err = ind.lens_grid_error(grid.H, grid.lens, scene)
                bad = err > 0.25
                wrong[mode] += bad
                outcomes.append(f"{mode}: {'LINES' if by_lines else 'markers'} {sorted({m.id for m in markers if m.id < 4})} err {err:.2f}"
                                f"{' WRONG' if bad else ''}{' by ' + grid.oriented_by if grid.oriented_by else ''}")
            except NoGridError as exc:
                refused[mode] += 1
                outcomes.append(f"{mode}: REFUSED ({str(exc)[-90:]})")
            totals[mode].append(time.process_time() - t0)
            outcomes[-1] += f" {totals[mode][-1]:.2f}s"
        print(f"s{seed:04d} {scene.look.floor:<7} corners {scene.look.corner_ids} {cols}x{rows} tilt {scene.cam.tilt_deg:4.1f} | {ref_note} | "
              + " | ".join(outcomes), flush=True)
    for mode in ("noref", "ref"):
        t = totals[mode]
        print(f"{mode}: refused {refused[mode]} of {len(seeds)}, wrong grid {wrong[mode]}, locate_grid CPU "
              f"{(sum(t) / len(t)) if t else 0:.2f} s a photo (max {max(t, default=0):.2f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--independent", default="", help="independent renderer seeds, e.g. 341-352 or 352,359,485 (751-764 are held out)")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--cache", default="")
    ap.add_argument("--only-corners", action="store_true", help="skip photos drawn without corner markers")
    ap.add_argument("--no-corners", action="store_true", help="skip photos drawn with corner markers (the printed-lines search only)")
    ap.add_argument("--load", type=float, default=1.0,
                    help="the budget is this many times smaller (it counts work, not time: a slower machine changes nothing)")
    ap.add_argument("--no-passes", action="store_true", help="skip the unbudgeted marker searches (only locate_grid)")
    args = ap.parse_args()
    if args.independent:
        independent(_seeds(args.independent), args.width if args.width != 2400 else 4000, Path(args.cache or "/tmp/photo_grid_indep"))
        return
    for i in range(args.start, args.n):
        seed = 2_000_000 + i
        rng = np.random.default_rng(seed)
        pos = random_position(rng, busy=bool(rng.random() < 0.5))
        corners = bool(rng.random() < 0.8)
        base_side = float(rng.uniform(0.3, 0.6))
        corner_side = float(rng.uniform(0.45, 1.3))  # drawn after the base side, as bench/photo.py draws them
        if (args.only_corners and not corners) or (args.no_corners and corners):
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
