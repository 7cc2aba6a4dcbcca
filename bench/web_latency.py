"""Benchmark: does heavy work on the live table freeze the other phones? Prints numbers; asserts nothing.

    python bench/web_latency.py [--rounds 3] [--root CHECKOUT]

``--root``: serve another checkout's code (the same bench before and after a change).

A real server (``serve_forever``, in its own process, as ``serve`` runs it) over
``clone-wars-example-combat`` started as a game. A "phone" asks ``GET /api/version`` every 20 ms
and another holds ``GET /api/stream`` open; meanwhile a third sends, one after the other:

- a 2.2 MB photo of noise (``POST /api/photo``: refused early, little detail at a board's scale),
- a 12 MP generated photo of the table (``POST /api/photo``: the whole pipeline: grid, squares,
  figures, the comparison),
- ``POST /api/photo/apply`` of 300 moves (12 KB: all checked, then recorded),
- 8 notes at once (the heavy POSTs' bound: 4 at a time, the rest wait).

For each: how long the heavy request took, and the version pings' p50 / p99 / max while it ran,
and how long the stream took to hear the last change. Goal (issue 29): no ping waits more than
250 ms.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from live_bench import SERVER, WRITES, _free_port  # noqa: E402  (the same served table as the push bench)


class Pinger:
    """GET /api/version every 20 ms: each answer's time (start, seconds)."""

    def __init__(self, base: str):
        import httpx

        self.client = httpx.Client(base_url=base, timeout=60)
        self.times: list[tuple[float, float]] = []
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop:
            t0 = time.perf_counter()
            self.client.get("/api/version")
            self.times.append((t0, time.perf_counter() - t0))
            time.sleep(0.02)

    def between(self, a: float, b: float) -> list[float]:
        return [d for t, d in self.times if a <= t <= b or (t < a and t + d > a)]


class Stream:
    """One phone's event stream: when each version arrived."""

    def __init__(self, base: str):
        self.got: dict[int, float] = {}
        self.base = base
        self.ready = threading.Event()
        threading.Thread(target=self.run, daemon=True).start()
        self.ready.wait(10)

    def run(self) -> None:
        import json

        import httpx

        try:
            with httpx.Client(timeout=None) as c, c.stream("GET", self.base + "/api/stream") as r:
                for line in r.iter_lines():
                    if line.startswith("data:"):
                        self.got[json.loads(line[5:])["version"]] = time.perf_counter()
                        self.ready.set()
        except httpx.HTTPError:
            pass


def _noise_jpeg() -> bytes:
    import cv2
    import numpy as np

    rng = np.random.default_rng(7)
    ok, buf = cv2.imencode(".jpg", rng.integers(0, 256, (1200, 1600, 3), dtype=np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 97])
    assert ok
    return bytes(buf.tobytes())


def _table_jpeg() -> bytes:
    """The served game's table, generated at 4000 x 3000 (a phone's 12 MP photo)."""
    import cv2

    from assistant.photo.synth import render_photo
    from assistant.position import load_position
    from assistant.resources import example_path

    img, _truth = render_photo(load_position(example_path("clone-wars-example-combat")), seed=5, width=4000, height=3000)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(buf.tobytes())


def _moves() -> list[dict[str, object]]:
    figures = ["obi", "clone", "sbd", "sbdc", "dooku"]
    rows = [1, 2, 3, 8, 9]  # the walls are F4:F6
    cols = "ABCDEGHIJKLMN"
    return [{"figure": figures[i % 5], "at": f"{cols[(i // 5) % len(cols)]}{rows[i % 5]}"} for i in range(300)]


def main() -> None:
    import httpx

    from assistant.cards import default_library
    from assistant.game import Game
    from assistant.resources import example_path

    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server is measured (default: this one)")
    ap.add_argument("--switch", type=float, default=None, help="the server's sys.setswitchinterval (default: Python's 0.005 s)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    game = tmp / "g.sqlite"
    Game.new(game, example_path("clone-wars-example-combat").read_text(encoding="utf-8"), default_library(), override="bench").close()
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(args.root.resolve())}
    code = SERVER if args.switch is None else f"import sys; sys.setswitchinterval({args.switch})\n" + SERVER
    server = subprocess.Popen([sys.executable, "-c", code, str(game), str(port)], cwd=args.root, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(base + "/api/version")
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        photo, table, moves = _noise_jpeg(), _table_jpeg(), _moves()
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; photos {len(photo) / 1e6:.1f} MB and "
              f"{len(table) / 1e6:.1f} MB, {len(moves)} moves; served from {args.root.resolve()}")
        ping, stream = Pinger(base), Stream(base)
        heavy = httpx.Client(base_url=base, timeout=120, headers=WRITES)
        time.sleep(1.0)
        idle = [d for _t, d in ping.times]
        print(f"idle: /api/version p50 {statistics.median(idle) * 1e3:.1f} ms, max {max(idle) * 1e3:.1f} ms")
        worst = 0.0

        def notes() -> httpx.Response:
            done: list[httpx.Response] = []
            ts = [threading.Thread(target=lambda k=k: done.append(heavy.post("/api/act", json={"verb": "note", "args": {"text": f"n{k}"}})))
                  for k in range(8)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            return done[-1]

        cases = [("2.2 MB noise photo", lambda: heavy.post("/api/photo", files={"photo": ("noise.jpg", photo, "image/jpeg")})),
                 ("12 MP table photo", lambda: heavy.post("/api/photo", files={"photo": ("table.jpg", table, "image/jpeg")})),
                 ("photo/apply, 300 moves", lambda: heavy.post("/api/photo/apply", json={"moves": moves})),
                 ("8 notes at once", notes)]
        for rnd in range(args.rounds):
            for name, send in cases:
                t0 = time.perf_counter()
                r = send()
                t1 = time.perf_counter()
                time.sleep(0.1)
                waits = ping.between(t0, t1) or [0.0]
                v = httpx.get(base + "/api/version").json()["version"]
                heard = stream.got.get(v)
                heard_ms = "-" if heard is None or "apply" not in name and "notes" not in name else f"{(heard - t1) * 1e3:.0f} ms"
                worst = max(worst, max(waits))
                print(f"round {rnd + 1} {name:24s} HTTP {r.status_code} in {t1 - t0:6.2f} s; version pings during it: "
                      f"{len(waits):3d}, p50 {statistics.median(waits) * 1e3:6.1f} ms, p99 "
                      f"{sorted(waits)[math.ceil(0.99 * len(waits)) - 1] * 1e3:6.1f} ms, max {max(waits) * 1e3:6.1f} ms; "
                      f"stream heard the change {heard_ms} after the answer")
        ping.stop = True
        print(f"longest wait of a version ping: {worst * 1e3:.0f} ms (goal: under 250 ms) -> {'met' if worst < 0.25 else 'NOT met'}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
