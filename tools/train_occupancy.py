"""Train the occupancy classifier shipped in ``assistant/photo/models`` (CPU only, from a seed).

    pip install -e '.[train]'
    python tools/train_occupancy.py [--photos 360] [--val 80] [--epochs 14] [--seed 0] [--workers 2] [--init MODEL.onnx]

1. **Data.** Generated photos (``render_photo(varied=True)``: printed art, faint lines, black
   and grey bases, painted figures of any colour standing in 3D, shadows, camera 0-50 degrees,
   phone focal lengths, white balance, noise, blur, JPEG) of random maps and rosters
   (``random_position``), a fifth in the plain look, the floors drawn from the training texture
   families only (``scenery.TRAIN_FAMILIES``: never the bench's held-out families or camera). The grid is found by the real pipeline
   (``locate_grid``), so the crops carry its small errors; photos it refuses use the true grid.
   Photo seeds: training from ``seed``, validation from ``seed + 500000`` (never overlapping).
2. **Model.** A small CNN in numpy (three 3x3 convolutions of 12, 24 and 32 channels, each with
   ReLU and 2x2 max-pooling, a hidden layer of 32, one logit), trained with Adam on weighted
   binary cross-entropy, the crops turned by random quarter turns and flips. ``--init`` starts
   from a shipped model's weights instead of random ones (fine-tuning on the widened textures).
3. **Calibration.** Platt scaling (a * logit + b) fitted on the validation photos, folded into
   the last layer, so the shipped output is a calibrated probability.
4. **Export.** ONNX (opset 13) through the ``onnx`` package, checked against the numpy model
   through OpenCV's DNN module; ``occupancy.json`` records the seed, sizes and the validation
   numbers.

Generated crops are cached in ``--cache`` (a .npz per split), so a rerun only trains.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.photo.occupancy import CROP, board_view, crops  # noqa: E402 (the checkout first on the path)
from assistant.photo.scenery import TRAIN_FAMILIES  # noqa: E402

# ---------------------------------------------------------------- data


def photo_crops(job: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops, labels (1 = a base stands there) and a per-crop 'hard' tag for one photo."""
    import cv2

    from assistant.photo import NoGridError, locate_grid
    from assistant.photo.board import Grid
    from assistant.photo.synth import random_position, render_photo

    seed, width = job
    rng = np.random.default_rng(seed)
    pos = random_position(rng, busy=True)
    varied = rng.random() < 0.8
    img, truth = render_photo(pos, seed=seed, width=width, height=width * 3 // 4, tilt_max=50.0, varied=varied, families=TRAIN_FAMILIES,
                              corner_side=float(rng.uniform(0.45, 1.3)), base_side=float(rng.uniform(0.3, 0.6)), stickers=True)
    try:
        grid = locate_grid(img, pos)[0]
    except NoGridError:
        grid = Grid(np.linalg.inv(truth.homography), 0.0, 0)
    cols, rows = pos.map.cols, pos.map.rows
    x = crops(board_view(img, grid, cols, rows), cols, rows)
    names = [(c, r) for r in range(rows) for c in range(cols)]
    occupied = {(s.col, s.row) for f in pos.figures for s in f.space}
    y = np.array([(c, r) in occupied for c, r in names], np.float32)
    # keep every base and the empty squares near one (where bodies lean and shadows fall), and a
    # sample of the rest: the far squares are many and easy
    near = np.array([any(abs(c - oc) <= 2 and abs(r - orr) <= 2 for oc, orr in occupied) for c, r in names])
    keep = (y > 0) | near | (rng.random(len(names)) < 0.35)
    del cv2
    return np.round(x[keep] * 255).astype(np.uint8), y[keep], near[keep]


def make_split(first_seed: int, n: int, width: int, workers: int, cache: Path) -> tuple[np.ndarray, np.ndarray]:
    if cache.is_file():
        d = np.load(cache)
        return d["x"], d["y"]
    t0 = time.perf_counter()
    jobs = [(first_seed + i, width) for i in range(n)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(photo_crops, jobs, chunksize=4)
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(cache, x=x, y=y)
    print(f"  {n} photos -> {len(y)} crops ({int(y.sum())} with a base) in {time.perf_counter() - t0:.0f} s", flush=True)
    return x, y


# ---------------------------------------------------------------- the model, in numpy (NHWC)

CHANNELS = (3, 12, 24, 32)
HIDDEN = 32


def init(rng: np.random.Generator) -> dict[str, np.ndarray]:
    p: dict[str, np.ndarray] = {}
    for i, (a, b) in enumerate(zip(CHANNELS[:-1], CHANNELS[1:], strict=True)):
        p[f"c{i}"] = (rng.normal(0, np.sqrt(2 / (9 * a)), size=(9 * a, b))).astype(np.float32)
        p[f"cb{i}"] = np.zeros(b, np.float32)
    side = CROP // 8
    flat = side * side * CHANNELS[-1]
    p["d0"] = rng.normal(0, np.sqrt(2 / flat), size=(flat, HIDDEN)).astype(np.float32)
    p["db0"] = np.zeros(HIDDEN, np.float32)
    p["d1"] = rng.normal(0, np.sqrt(1 / HIDDEN), size=(HIDDEN, 1)).astype(np.float32)
    p["db1"] = np.zeros(1, np.float32)
    return p


def _cols(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2))  # n, h, w, c, 3, 3
    return win.reshape(n * h * w, c * 9)


def forward(p: dict[str, np.ndarray], x: np.ndarray, keep: bool = False) -> tuple[np.ndarray, list]:
    cache = []
    for i in range(3):
        n, h, w, _ = x.shape
        cols = _cols(x)
        z = (cols @ p[f"c{i}"] + p[f"cb{i}"]).reshape(n, h, w, -1)
        a = np.maximum(z, 0)
        pooled = a.reshape(n, h // 2, 2, w // 2, 2, -1).max(axis=(2, 4))
        if keep:
            cache.append((x.shape, cols, z, a, pooled))
        x = pooled
    flat = x.reshape(len(x), -1)
    hz = flat @ p["d0"] + p["db0"]
    hidden = np.maximum(hz, 0)
    logit = (hidden @ p["d1"] + p["db1"])[:, 0]
    if keep:
        cache.append((flat, hz, hidden))
    return logit, cache


def backward(p: dict[str, np.ndarray], cache: list, dlogit: np.ndarray) -> dict[str, np.ndarray]:
    g: dict[str, np.ndarray] = {}
    flat, hz, hidden = cache[-1]
    d = dlogit[:, None]
    g["d1"] = hidden.T @ d
    g["db1"] = d.sum(0)
    dh = (d @ p["d1"].T) * (hz > 0)
    g["d0"] = flat.T @ dh
    g["db0"] = dh.sum(0)
    dx = (dh @ p["d0"].T)
    for i in (2, 1, 0):
        shape, cols, z, a, pooled = cache[i]
        n, h, w, c = shape
        dpool = dx.reshape(pooled.shape)
        up = np.repeat(np.repeat(pooled, 2, axis=1), 2, axis=2)
        mask = (a == up)
        da = mask * np.repeat(np.repeat(dpool, 2, axis=1), 2, axis=2)
        dz = (da * (z > 0)).reshape(n * h * w, -1)
        g[f"c{i}"] = cols.T @ dz
        g[f"cb{i}"] = dz.sum(0)
        if i == 0:
            break
        dcols = (dz @ p[f"c{i}"].T).reshape(n, h, w, c, 3, 3)
        dxp = np.zeros((n, h + 2, w + 2, c), np.float32)
        for di in range(3):
            for dj in range(3):
                dxp[:, di:di + h, dj:dj + w, :] += dcols[..., di, dj]
        dx = dxp[:, 1:-1, 1:-1, :]
    return g


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    k = int(rng.integers(0, 4))
    x = np.rot90(x, k, axes=(1, 2))
    if rng.random() < 0.5:
        x = x[:, :, ::-1]
    # brightness and contrast jitter, per crop
    gain = rng.uniform(0.8, 1.2, size=(len(x), 1, 1, 1)).astype(np.float32)
    return np.ascontiguousarray(x * gain)


def load_onnx(path: Path) -> dict[str, np.ndarray]:
    """The numpy weights of a model :func:`export` wrote (the inverse of its reordering)."""
    import onnx
    from onnx import numpy_helper

    w = {t.name: numpy_helper.to_array(t).astype(np.float32) for t in onnx.load(str(path)).graph.initializer}
    p: dict[str, np.ndarray] = {}
    for i, (a, b) in enumerate(zip(CHANNELS[:-1], CHANNELS[1:], strict=True)):
        p[f"c{i}"] = np.ascontiguousarray(w[f"w{i}"].reshape(b, a * 9).T)
        p[f"cb{i}"] = w[f"b{i}"]
    side = CROP // 8
    p["d0"] = np.ascontiguousarray(w["wd0"].reshape(CHANNELS[-1], side, side, HIDDEN).transpose(1, 2, 0, 3).reshape(-1, HIDDEN))
    p["db0"], p["d1"], p["db1"] = w["bd0"], w["wd1"], w["bd1"]
    return p


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int, start: dict[str, np.ndarray] | None = None,
          lr0: float = 2e-3) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    p = init(rng) if start is None else {k: v.copy() for k, v in start.items()}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v2 = {k: np.zeros_like(v) for k, v in p.items()}
    pos_weight = float((len(y) - y.sum()) / max(1.0, y.sum())) ** 0.5  # part-way to balanced
    step, batch = 0, 128
    for epoch in range(epochs):
        t0 = time.perf_counter()
        lr = lr0 * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        order = rng.permutation(len(y))
        total = 0.0
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            xb = augment(x[idx].astype(np.float32) / 255 - 0.5, rng)
            yb = y[idx]
            logit, cache = forward(p, xb, keep=True)
            prob = 1 / (1 + np.exp(-np.clip(logit, -30, 30)))
            wt = np.where(yb > 0, pos_weight, 1.0)
            total += float(np.sum(wt * (np.logaddexp(0, logit) - yb * logit)))
            g = backward(p, cache, (wt * (prob - yb) / len(idx)).astype(np.float32))
            step += 1
            for k in p:
                gk = g[k] + (1e-4 * p[k] if k in ("d0", "d1") else 0)
                m[k] = 0.9 * m[k] + 0.1 * gk
                v2[k] = 0.999 * v2[k] + 0.001 * gk * gk
                mh, vh = m[k] / (1 - 0.9 ** step), v2[k] / (1 - 0.999 ** step)
                p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / len(y):.4f}, {time.perf_counter() - t0:.0f} s", flush=True)
    return p


def predict(p: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    out = [forward(p, x[i:i + 512].astype(np.float32) / 255 - 0.5)[0] for i in range(0, len(x), 512)]
    return np.concatenate(out)


def platt(logit: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """a, b minimising the log loss of sigmoid(a * logit + b) (Newton's method)."""
    a, b = 1.0, 0.0
    for _ in range(50):
        z = a * logit + b
        q = 1 / (1 + np.exp(-np.clip(z, -30, 30)))
        r = q - y
        ga, gb = float(np.sum(r * logit)), float(np.sum(r))
        w = q * (1 - q) + 1e-9
        haa, hab, hbb = float(np.sum(w * logit * logit)), float(np.sum(w * logit)), float(np.sum(w))
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return a, b


# ---------------------------------------------------------------- export


def export(p: dict[str, np.ndarray], path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    x = "input"
    for i, (a, b) in enumerate(zip(CHANNELS[:-1], CHANNELS[1:], strict=True)):
        w = p[f"c{i}"].T.reshape(b, a, 3, 3)  # rows of the im2col weights are (c, kh, kw)
        inits += [numpy_helper.from_array(w.astype(np.float32), f"w{i}"), numpy_helper.from_array(p[f"cb{i}"], f"b{i}")]
        nodes += [helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [f"conv{i}"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
                  helper.make_node("Relu", [f"conv{i}"], [f"relu{i}"]),
                  helper.make_node("MaxPool", [f"relu{i}"], [f"pool{i}"], kernel_shape=[2, 2], strides=[2, 2])]
        x = f"pool{i}"
    side = CROP // 8
    # numpy flattens (h, w, c); ONNX flattens NCHW as (c, h, w): reorder the dense rows
    d0 = p["d0"].reshape(side, side, CHANNELS[-1], HIDDEN).transpose(2, 0, 1, 3).reshape(-1, HIDDEN)
    inits += [numpy_helper.from_array(d0.astype(np.float32), "wd0"), numpy_helper.from_array(p["db0"], "bd0"),
              numpy_helper.from_array(p["d1"].astype(np.float32), "wd1"), numpy_helper.from_array(p["db1"], "bd1")]
    nodes += [helper.make_node("Flatten", [x], ["flat"], axis=1),
              helper.make_node("Gemm", ["flat", "wd0", "bd0"], ["hz"]),
              helper.make_node("Relu", ["hz"], ["hidden"]),
              helper.make_node("Gemm", ["hidden", "wd1", "bd1"], ["logit"])]
    graph = helper.make_graph(nodes, "occupancy", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [None, 3, CROP, CROP])],
                              [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, [None, HIDDEN]),
                               helper.make_tensor_value_info("logit", TensorProto.FLOAT, [None, 1])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="tools/train_occupancy.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))


def _init_meta(path: Path | None) -> dict[str, object] | None:
    """What a fine-tuned model started from: the sizes its .json beside it records."""
    if path is None:
        return None
    meta: dict[str, object] = {"file": path.name}
    side = path.with_suffix(".json")
    if side.is_file():
        old = json.loads(side.read_text(encoding="utf-8"))
        meta.update({k: old[k] for k in ("seed", "train_photos", "epochs", "width", "families") if k in old})
    return meta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=360)
    ap.add_argument("--val", type=int, default=80)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--width", type=int, default=2400, help="photo width for training (the crops are 16 px a square whatever it is)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--init", type=Path, default=None, help="start from this model's weights (an occupancy.onnx this script wrote)")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's first learning rate (cosine to 0); lower when fine-tuning")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/occupancy-data"))
    ap.add_argument("--out", type=Path, default=ROOT / "assistant" / "photo" / "models")
    a = ap.parse_args()
    t0 = time.perf_counter()
    print("generating training photos", flush=True)
    x, y = make_split(a.seed, a.photos, a.width, a.workers, a.cache / f"train-fam-{a.seed}-{a.photos}-{a.width}.npz")
    print("generating validation photos", flush=True)
    xv, yv = make_split(a.seed + 500_000, a.val, a.width, a.workers, a.cache / f"val-fam-{a.seed}-{a.val}-{a.width}.npz")
    p = train(x, y, a.epochs, a.seed, load_onnx(a.init) if a.init else None, a.lr)
    lv = predict(p, xv)
    pa, pb = platt(lv, yv)
    p["d1"] = p["d1"] * pa
    p["db1"] = (p["db1"] * pa + pb).astype(np.float32)
    prob = 1 / (1 + np.exp(-np.clip(lv * pa + pb, -30, 30)))
    err = float(np.mean((prob >= 0.5) != (yv > 0)))
    unsure = float(np.mean(np.abs(prob - 0.5) < 0.3))
    missed_after = float(np.mean(((prob >= 0.5) != (yv > 0)) & (np.abs(prob - 0.5) >= 0.3)))
    print(f"validation ({len(yv)} crops, {int(yv.sum())} with a base): error {100 * err:.3f} %, "
          f"listed uncertain {100 * unsure:.2f} %, wrong and not listed {100 * missed_after:.3f} %; Platt a={pa:.3f} b={pb:.3f}")
    onnx_path = a.out / "occupancy.onnx"
    export(p, onnx_path)
    import cv2

    net = cv2.dnn.readNetFromONNX(str(onnx_path))
    probe = xv[:64].astype(np.float32) / 255 - 0.5
    net.setInput(np.ascontiguousarray(probe.transpose(0, 3, 1, 2)))
    got = net.forward("logit").reshape(-1)
    want = forward(p, probe)[0]
    print(f"ONNX through OpenCV DNN matches numpy: max difference {float(np.max(np.abs(got - want))):.2e}")
    meta = {"seed": a.seed, "train_photos": a.photos, "val_photos": a.val, "epochs": a.epochs, "width": a.width,
            "families": list(TRAIN_FAMILIES), "init": _init_meta(a.init), "lr": a.lr,
            "train_crops": len(y), "val_crops": len(yv), "val_error": err, "val_uncertain": unsure,
            "platt": [pa, pb], "last_weights": [float(v) for v in p["d1"][:, 0]], "last_bias": float(p["db1"][0]),
            "seconds": round(time.perf_counter() - t0)}
    (a.out / "occupancy.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {onnx_path} ({onnx_path.stat().st_size // 1024} KiB) in {meta['seconds']} s")


if __name__ == "__main__":
    main()
