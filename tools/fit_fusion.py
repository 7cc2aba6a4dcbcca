"""Fit the fusion model (assistant/photo/models/fusion.json): the learned classifier AND the reference.

    python tools/fit_fusion.py [--n 40] [--width 2400] [--cache /tmp/fcache]

With the empty map's reference photo, each square has two readings: the learned classifier's
calibrated probability (:func:`assistant.photo.occupancy.square_probabilities`, the photo
alone) and the reference comparison's (:mod:`assistant.photo.bases`, the photo against the
empty map). Neither is best alone: the comparison knows printed art is background, the
classifier knows what a base looks like on most floors. A small logistic model
(:data:`assistant.photo.bases.FUSION_INPUTS`: both logits, their product, and the comparison's
strongest features) decides from both.

Each pair as in tools/fit_bases.py (one map, the empty map photographed by one camera under one
light, the game by another), with the training floor families
(:data:`assistant.photo.scenery.TRAIN_FAMILIES`, never the held-out ones) and 0-6 base-sized
dark patches printed on the map (art that looks like a base). Seeds 3,150,000 up (reference
camera) and 4,150,000 up (game camera): disjoint from tools/fit_bases.py (3,100,000-3,100,119,
so the base model's logits are not read on its own training photos), bench/photo_reference.py
(3,200,000 up), bench/photo.py (2,000,000 up) and the classifier's training (below 2,000,000).
Fitted on four fifths, its error reported on the last fifth for the classifier alone, the
reference alone and the fusion; then refitted on all.
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
from assistant.photo.bases import FUSION_INPUTS, _model, fusion_inputs, fusion_logits, logits, square_features
from assistant.photo.occupancy import square_probabilities
from assistant.photo.reference import compare_views, make_reference, top_down
from assistant.photo.scenery import TRAIN_FAMILIES
from assistant.photo.synth import random_position, render_photo
from tools.fit_bases import fit

SEED = 3_150_000
GAME_CAMERA = 1_000_000


def pair(seed: int, width: int, cache: Path | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool] | None:
    """(classifier's p, base features, base model's logit, labels, art?) of one pair, or None."""
    hit = cache / f"{seed}-{width}.npz" if cache else None
    if hit is not None and hit.is_file():
        z = np.load(hit)
        return None if not z["ok"] else (z["p_cls"], z["x"], z["l_ref"], z["y"], bool(z["art"]))
    rng = np.random.default_rng(seed)
    pos = random_position(rng, busy=bool(rng.random() < 0.5))
    kw = dict(width=width, height=width * 3 // 4, varied=True, stickers=True, look_seed=seed, families=TRAIN_FAMILIES,
              corner_side=float(rng.uniform(0.6, 1.3)), base_side=float(rng.uniform(0.3, 0.6)),
              dark_patches=int(rng.integers(0, 7)))
    ref_img, _t = render_photo(replace(pos, figures=()), seed=seed, tilt_max=25.0, **kw)  # type: ignore[arg-type]
    img, truth = render_photo(pos, seed=seed + GAME_CAMERA, tilt_max=50.0, **kw)  # type: ignore[arg-type]
    cols, rows = pos.map.cols, pos.map.rows
    try:
        ref = make_reference(ref_img, locate_grid(ref_img, replace(pos, figures=()))[0], cols, rows, "ref")
        grid = locate_grid(img, pos, reference=ref)[0]
    except NoGridError:
        if hit is not None:
            np.savez(hit, ok=False)
        return None
    names = [Square(c, r).name for r in range(rows) for c in range(cols)]
    pc = square_probabilities(img, grid, cols, rows)
    p_cls = np.array([pc[n] for n in names], np.float64)
    x = square_features(compare_views(top_down(img, grid, cols, rows), ref), cols, rows)
    l_ref = logits(x, _model())
    y = np.array([n in truth.occupied for n in names], np.float64)
    art = bool(truth.conditions["art"])
    if hit is not None:
        np.savez_compressed(hit, ok=True, p_cls=p_cls, x=x, l_ref=l_ref, y=y, art=art)
    return p_cls, x, l_ref, y, art


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--width", type=int, default=2400)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--cache", type=Path, default=None, help="keep each pair's readings here (refit without drawing again)")
    ap.add_argument("--out", type=Path, default=Path("assistant/photo/models/fusion.json"))
    a = ap.parse_args()
    if a.cache is not None:
        a.cache.mkdir(parents=True, exist_ok=True)
    got, t0 = [], time.time()
    for i in range(a.n):
        r = pair(SEED + i, a.width, a.cache)
        if r is not None:
            got.append(r)
            print(f"pair {i}: {len(r[3])} squares, {int(r[3].sum())} occupied, {time.time() - t0:.0f} s", flush=True)
    inputs = [fusion_inputs(p, x, lr) for p, x, lr, _y, _a in got]
    ys = [g[3] for g in got]
    arts = [g[4] for g in got]
    split = max(1, len(got) * 4 // 5)
    allx = np.concatenate(inputs)
    mean, std = allx.mean(axis=0), allx.std(axis=0) + 1e-6

    def fitted(idx: range) -> dict[str, object]:
        w, b = fit((np.concatenate([inputs[k] for k in idx]) - mean) / std, np.concatenate([ys[k] for k in idx]), a.l2)
        return {"inputs": list(FUSION_INPUTS), "mean": mean.tolist(), "std": std.tolist(), "weights": w.tolist(), "bias": b}

    meta = fitted(range(split))
    if split < len(got):
        for label, keep in (("all", [True] * len(got)), ("art", arts), ("plain", [not k for k in arts])):
            idx = [k for k in range(split, len(got)) if keep[k]]
            if not idx:
                continue
            yv = np.concatenate([ys[k] for k in idx])
            line = []
            for name, score in (("classifier", [inputs[k][:, 0] for k in idx]), ("reference", [inputs[k][:, 1] for k in idx]),
                                ("fused", [fusion_logits(inputs[k], meta) for k in idx])):
                wrong = int(((np.concatenate(score) >= 0) != (yv > 0.5)).sum())
                boards = sum(int(((s >= 0) != (ys[k] > 0.5)).sum()) == 0 for s, k in zip(score, idx, strict=True))
                line.append(f"{name} {wrong} ({100 * wrong / len(yv):.2f} %, {boards} boards right)")
            print(f"held out ({label}, {len(idx)} photos, {len(yv)} squares): squares wrong: " + "; ".join(line))
    meta = fitted(range(len(got)))
    meta.update(pairs=len(got), width=a.width, seeds=f"{SEED}-{SEED + a.n - 1} (+{GAME_CAMERA} for the game camera)")
    a.out.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {a.out} ({len(got)} pairs, {time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
