"""Fit the base model (assistant/photo/models/bases.json) on generated pairs of photos.

    python tools/fit_bases.py [--n 120] [--width 2400] [--out assistant/photo/models/bases.json]

Each pair: one random map in one random look (printed art or plain paper), photographed empty
by one camera under one light and white balance (the reference), then with figures by another
camera under another light (``render_photo(..., look_seed=)``). Both grids are found by the
detector (corner markers), the game photo is compared with the reference, each square's
features (:func:`assistant.photo.bases.square_features`) are labelled by the photo's truth.
A logistic regression (L2, Newton's method; linear and squared standardised features) is fitted
on four fifths of the pairs and its error reported on the last fifth, then refitted on all.
Seeds 3,100,000 up (reference camera) and 4,100,000 up (game camera): never used by
bench/photo_reference.py (3,200,000 and 4,200,000 up) nor bench/photo.py (2,000,000 up).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from assistant.coords import Square
from assistant.photo import NoGridError, locate_grid
from assistant.photo.bases import FEATURES, logits, square_features
from assistant.photo.reference import Reference, compare_views, make_reference, top_down
from assistant.photo.synth import random_position, render_photo

SEED = 3_100_000
GAME_CAMERA = 1_000_000


def pair(seed: int, width: int, cache: Path | None = None) -> tuple[np.ndarray, np.ndarray, dict[str, object]] | None:
    """The features and labels of one pair of photos (both top-down views kept in ``cache``, when
    given, so that the comparison and the features can be changed and refitted without drawing
    the photos again)."""
    hit = cache / f"{seed}-{width}.npz" if cache else None
    if hit is not None and hit.is_file():
        z = np.load(hit)
        if not z["ok"]:
            return None
        cols, rows = int(z["cols"]), int(z["rows"])
        ch = compare_views(z["view"], Reference(z["ref_view"], cols, rows, "", ""))
        return square_features(ch, cols, rows), z["y"], {"art": bool(z["art"])}
    rng = np.random.default_rng(seed)
    pos = random_position(rng, busy=bool(rng.random() < 0.5))
    kw = dict(width=width, height=width * 3 // 4, tilt_max=50.0, varied=True, stickers=True, look_seed=seed,
              corner_side=float(rng.uniform(0.6, 1.3)), base_side=float(rng.uniform(0.3, 0.6)))
    ref_img, _t = render_photo(replace(pos, figures=()), seed=seed, **kw)  # type: ignore[arg-type]
    img, truth = render_photo(pos, seed=seed + GAME_CAMERA, **kw)  # type: ignore[arg-type]
    cols, rows = pos.map.cols, pos.map.rows
    try:
        ref = make_reference(ref_img, locate_grid(ref_img, pos)[0], cols, rows, "ref")
        grid = locate_grid(img, pos)[0]
    except NoGridError:
        if hit is not None:
            np.savez(hit, ok=False)
        return None
    view = top_down(img, grid, cols, rows)
    x = square_features(compare_views(view, ref), cols, rows)
    y = np.array([Square(c, r).name in truth.occupied for r in range(rows) for c in range(cols)], np.float64)
    if hit is not None:
        np.savez_compressed(hit, ok=True, cols=cols, rows=rows, y=y, art=truth.conditions["art"], view=view, ref_view=ref.view)
    return x, y, {"art": truth.conditions["art"]}


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method (IRLS) with an L2 penalty on the weights."""
    X = np.concatenate([x, np.ones((len(x), 1))], axis=1)
    w = np.zeros(X.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-np.clip(X @ w, -30, 30)))
        g = X.T @ (p - y) + l2 * np.r_[w[:-1], 0]
        Hs = (X * (p * (1 - p))[:, None]).T @ X + l2 * np.diag(np.r_[np.ones(len(w) - 1), 0])
        step = np.linalg.solve(Hs, g)
        w -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return w[:-1], float(w[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--cache", type=Path, default=None, help="keep each pair's comparison here (refit without drawing again)")
    ap.add_argument("--out", type=Path, default=Path("assistant/photo/models/bases.json"))
    a = ap.parse_args()
    xs, ys, arts = [], [], []
    t0 = time.time()
    for i in range(a.n):
        got = pair(SEED + i, a.width, a.cache)
        if got is None:
            continue
        x, y, info = got
        xs.append(x)
        ys.append(y)
        arts.append(bool(info["art"]))
        print(f"pair {i}: {len(y)} squares, {int(y.sum())} occupied, {time.time() - t0:.0f} s", flush=True)
    split = max(1, len(xs) * 4 // 5)

    def design(parts: list[np.ndarray], mean: np.ndarray, std: np.ndarray) -> np.ndarray:
        z = (np.concatenate(parts) - mean) / std
        return np.concatenate([z, z * z], axis=1)

    allx = np.concatenate(xs)
    mean, std = allx.mean(axis=0), allx.std(axis=0) + 1e-6
    w, b = fit(design(xs[:split], mean, std), np.concatenate(ys[:split]))
    meta = {"features": list(FEATURES), "mean": mean.tolist(), "std": std.tolist(), "squares": True, "weights": w.tolist(), "bias": b}
    if split < len(xs):
        for label, keep in (("all", [True] * len(xs)), ("art", arts), ("plain", [not k for k in arts])):
            idx = [k for k in range(split, len(xs)) if keep[k]]
            if not idx:
                continue
            xv, yv = np.concatenate([xs[k] for k in idx]), np.concatenate([ys[k] for k in idx])
            p = 1 / (1 + np.exp(-logits(xv.astype(np.float32), meta)))
            wrong = int(((p >= 0.5) != (yv > 0.5)).sum())
            unsure = int((np.abs(p - 0.5) < 0.35).sum())
            boards = sum(int(((1 / (1 + np.exp(-logits(xs[k], meta))) >= 0.5) != (ys[k] > 0.5)).sum()) == 0 for k in idx)
            print(f"held out ({label}, {len(idx)} photos): {wrong} of {len(yv)} squares wrong ({100 * wrong / len(yv):.2f} %), "
                  f"{unsure} unsure, {boards} boards fully right")
    w, b = fit(design(xs, mean, std), np.concatenate(ys))
    meta.update(weights=w.tolist(), bias=b, pairs=len(xs), width=a.width, seeds=f"{SEED}-{SEED + a.n - 1} (+{GAME_CAMERA} for the game camera)")
    a.out.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {a.out} ({len(xs)} pairs, {time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
