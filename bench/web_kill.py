"""Benchmark: kill -9 the live table's server mid-write, retry, and count what the log kept.
Prints numbers; asserts nothing.

    python bench/web_kill.py [--kills 50] [--seed 1]

A real server (``serve_forever`` in its own process, as ``serve`` runs it) over
``clone-wars-example-combat`` started as a game. One client sends notes, one at a time, each with
its own ``X-Request-Id``. At a random moment between the request's start and twice a write's median time the server gets SIGKILL: the
request in flight may have been committed, or not, and its answer never comes. A new server is
started on the same file and the client retries that request with the same id, then goes on.

At the end the log is read with the program's own reader (which also checks the hash chain), and
for every request id the client sent: how many events carry it. Goal (issue 29): every
acknowledged write kept exactly once, every retried one at most once (once, after its retry is
acknowledged), nothing else in the log.
"""

from __future__ import annotations

import argparse
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from live_bench import SERVER, WRITES, _free_port  # noqa: E402  (the same served table as the push bench)


def _start(game: Path) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(game), str(port)], cwd=ROOT, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            httpx.get(base + "/api/version", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def main() -> None:
    import httpx

    from assistant.game import Game
    from assistant.resources import example_path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "g.sqlite"
        Game.new(game, example_path("clone-wars-example-combat").read_text(encoding="utf-8")).close()
        acknowledged: list[str] = []
        interrupted: list[str] = []  # in flight when the server was killed
        retried_ok: list[str] = []
        took: list[float] = []  # how long an acknowledged write took (the kill's window follows it)
        repeats = 0  # retries answered from the log: the first try had been committed before the kill
        n = 0
        proc, base = _start(game)
        started = time.perf_counter()
        for kill in range(args.kills):
            # a few acknowledged writes, then one whose server is killed under it
            for _ in range(rnd.randint(1, 4)):
                n += 1
                rid = f"w{n}"
                t0 = time.perf_counter()
                r = httpx.post(base + "/api/act", json={"verb": "note", "args": {"text": rid}}, headers={**WRITES, "x-request-id": rid}, timeout=30)
                if r.status_code == 200:
                    acknowledged.append(rid)
                    took.append(time.perf_counter() - t0)
            n += 1
            rid = f"w{n}"
            # the kill lands anywhere from before the request to after its usual answer
            timer = threading.Timer(rnd.uniform(0.0, 2 * sorted(took)[len(took) // 2]), lambda p=proc: p.send_signal(signal.SIGKILL))
            timer.start()
            try:
                r = httpx.post(base + "/api/act", json={"verb": "note", "args": {"text": rid}}, headers={**WRITES, "x-request-id": rid}, timeout=30)
                answered = r.status_code == 200
            except httpx.HTTPError:
                answered = False
            timer.join()
            proc.wait(10)
            if answered:
                acknowledged.append(rid)  # the answer came before the kill
            else:
                interrupted.append(rid)
            proc, base = _start(game)
            if not answered:  # the client never heard: it sends the same request again
                r = httpx.post(base + "/api/act", json={"verb": "note", "args": {"text": rid}}, headers={**WRITES, "x-request-id": rid}, timeout=30)
                if r.status_code == 200:
                    retried_ok.append(rid)
                    repeats += r.headers.get("x-request-repeat") == "1"
            if (kill + 1) % 10 == 0:
                print(f"  {kill + 1} kills, {time.perf_counter() - started:.0f} s", flush=True)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        g = Game.open(game, readonly=True)  # the program's own reader: the chain is checked on the way
        try:
            notes = [e for e in g.events() if e.kind == "note"]
        finally:
            g.close()
        kept = Counter(str(e.data.get("text")) for e in notes)
        sent = set(acknowledged) | set(interrupted)
        print(f"kills: {args.kills}; requests sent: {len(sent)}; acknowledged at once: {len(acknowledged)}; "
              f"interrupted by the kill: {len(interrupted)} (retry acknowledged: {len(retried_ok)})")
        lost = [r for r in acknowledged + retried_ok if kept[r] == 0]
        twice = [r for r in sent if kept[r] > 1]
        stray = [t for t in kept if t not in sent]
        print(f"acknowledged writes lost: {len(lost)}; written more than once: {len(twice)}; events no request made: {len(stray)}")
        print(f"interrupted requests committed before the kill (their retry answered from the log): {repeats} of {len(interrupted)}")
        print("goal: 0 lost, 0 twice, 0 stray -> " + ("met" if not (lost or twice or stray) else "NOT met"))


if __name__ == "__main__":
    main()
