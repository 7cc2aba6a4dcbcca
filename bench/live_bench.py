"""Benchmark: the live table with phones in step. Prints numbers; asserts nothing.

    python bench/live_bench.py [--phones 8] [--changes 40] [--queries 200] [--case NAME ...]

A real server (uvicorn in a subprocess, as ``serve`` runs it) on a free loopback port, one per
case: the bundled examples a player starts a game on (``game new``: clone-wars-corridor,
clone-wars-example-combat, pillar-room, ddm-forest-field; every pair of figures on opposite sides
whose attack the cards answer) and, as the
stress case, the 40 x 40 benchmark map of bench/geometry.py (24 figures with stats). PHONES
phones hold ``/api/stream`` open the whole time. The machine's load (``os.getloadavg``) is
printed with each case's numbers: the answers are timed on a machine that may be busy.

- HTTP: the answer a phone asks for when a pair is tapped -- line of sight, cover and the attack
  (three requests) -- p50 and p99 per request and for the three together: asked by one phone
  at a time, first right after a change of the game (computed) and then again (the server keeps
  an answer for the state it was asked in), then by all the phones at once (goal: p99 <= 50 ms
  per request);
- push: a change recorded -> ``event: change`` received by every phone, p50 and p99 over
  CHANGES changes x PHONES phones, for a record made through the server (``POST /api/act``,
  timed from the request sent) and for one written by another process straight into the SQLite
  log (the command line's way; timed from its commit) (goal: p99 <= 300 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(ROOT))
from attack import with_stats  # noqa: E402
from geometry import make_position, pct  # noqa: E402

#: the write token the served table takes (a phone's page has it from its HTML; every POST carries it)
WRITES = {"x-write-token": "bench"}

SERVER = """
import sys
from pathlib import Path
from assistant.cards import default_library
from assistant.live.table import Table
from assistant.live.web import create_app, serve_forever
serve_forever(create_app(Table(game=Path(sys.argv[1]), library=default_library()), write_token="bench"), "127.0.0.1", int(sys.argv[2]))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Phone(threading.Thread):
    """One phone's event stream: when each version arrived."""

    def __init__(self, base: str):
        super().__init__(daemon=True)
        self.base = base
        self.arrived: dict[int, float] = {}
        self.connected = threading.Event()

    def run(self) -> None:
        import httpx

        try:
            with httpx.Client(timeout=None) as c, c.stream("GET", self.base + "/api/stream") as r:
                event = None
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:") and event == "change":
                        self.arrived.setdefault(json.loads(line[5:])["version"], time.perf_counter())
                        self.connected.set()
        except httpx.HTTPError:
            pass  # the server stopped


def _wait(phones: list[Phone], version: int, timeout: float = 5.0) -> list[float]:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if all(version in p.arrived for p in phones):
            return [p.arrived[version] for p in phones]
        time.sleep(0.001)
    missing = sum(version not in p.arrived for p in phones)
    raise SystemExit(f"version {version} not pushed to {missing} phone(s) within {timeout} s")


#: goal name -> (label, limit in ms)
GOALS = {"first_note": ("first ask after a note (board unchanged), per request p99", 50.0),
         "first": ("first ask after 1 damage (a new board), per request p99", 50.0),
         "again": ("same pair asked again, per request p99", 50.0),
         "phones": ("all phones asking at once, per request p99", 50.0),
         "push": ("push through the server p99", 300.0),
         "push_cli": ("push of another process's record p99", 300.0)}


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} core(s)"


def _case(name: str) -> tuple[str, list[tuple[str, str]], str]:
    """A case's position text, the pairs asked (attacker, target) and its words."""
    from assistant.cards import default_library
    from assistant.position import parse_position

    if name == "40x40":
        return (with_stats(make_position()), [(f"f{i}", f"f{j}") for i in range(0, 24, 2) for j in range(1, 24, 2)],
                "the 40 x 40 stress map (24 figures)")
    text = (ROOT / "assistant" / "examples" / f"{name}.yaml").read_text(encoding="utf-8")
    pos = parse_position(text, name, default_library())
    pairs = [(f.id, g.id) for f in pos.figures for g in pos.figures if f.side != g.side]
    return text, pairs, f"the bundled example {name} ({len(pos.figures)} figures, {pos.map.cols} x {pos.map.rows})"


def run_case(name: str, a: argparse.Namespace) -> dict[str, float]:
    """One case's numbers, printed; returns each goal's p99 (ms)."""
    import httpx

    from assistant.cards import default_library
    from assistant.game import Game

    work = Path(tempfile.mkdtemp())
    game = work / "bench.sqlite"
    text, pairs, where = _case(name)
    Game.new(game, text, default_library(), override="bench").close()
    goal: dict[str, float] = {}
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(game), str(port)], env=env, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        c = httpx.Client(base_url=base, timeout=30, headers=WRITES)
        for _ in range(300):
            try:
                c.get("/api/version")
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        phones = [Phone(base) for _ in range(a.phones)]
        for p in phones:
            p.start()
        for p in phones:
            if not p.connected.wait(10):
                raise SystemExit("a phone's stream did not open")
        urls = ("/api/los?viewer={}&target={}", "/api/cover?attacker={}&target={}", "/api/attack?attacker={}&target={}")
        # a pair whose attack the cards cannot answer (a stat not given: refused, not kept) is
        # not a pair the goal is about
        pairs = [(x, y) for x, y in pairs if c.get(urls[2].format(x, y)).status_code == 200]
        if not pairs:
            print(f"{where}: no pair has an attack the cards answer (a stat not given), not measured")
            return goal
        print(f"{where}, {len(pairs)} pairs, served by uvicorn in a subprocess on loopback, {a.phones} phones on /api/stream; {_load()}")
        for x, y in pairs[:4]:  # warm the fold and the imports
            for u in urls:
                c.get(u.format(x, y))

        def ask(client: httpx.Client, k: int, per: dict[str, list[float]], triples: list[float]) -> None:
            x, y = pairs[k % len(pairs)]
            t_all = time.perf_counter()
            for name, u in zip(("los", "cover", "attack"), urls, strict=True):
                t0 = time.perf_counter()
                r = client.get(u.format(x, y))
                per[name].append((time.perf_counter() - t0) * 1000)
                if r.status_code != 200:
                    raise SystemExit(f"{u.format(x, y)}: {r.status_code} {r.text[:200]}")
            triples.append((time.perf_counter() - t_all) * 1000)

        def report(label: str, per: dict[str, list[float]], triples: list[float]) -> None:
            print(f"  {label}")
            for name, ts in per.items():
                print(f"    {name:<7} p50 {pct(ts, 0.5):6.2f} ms  p99 {pct(ts, 0.99):6.2f} ms  ({len(ts)} requests)")
            print(f"    all three p50 {pct(triples, 0.5):6.2f} ms  p99 {pct(triples, 0.99):6.2f} ms  (goal per request: p99 <= 50 ms)")

        # the server keeps each answer for the state it was asked in: a pair's first ask after a
        # change is computed, a repeat is read back; both are timed, apart
        # two kinds of change: one that leaves the board as it was (a note; an activation, the
        # end of a turn, initiative are alike) and one that changes a figure (1 damage to the
        # pair's target, healed again after the asks, untimed): the board is then a new one
        per: dict[str, list[float]] = {"los": [], "cover": [], "attack": []}
        triples: list[float] = []
        moved: dict[str, list[float]] = {"los": [], "cover": [], "attack": []}
        moved_triples: list[float] = []
        again: dict[str, list[float]] = {"los": [], "cover": [], "attack": []}
        again_triples: list[float] = []
        for k in range(a.queries):
            if k % 2:
                target = pairs[k % len(pairs)][1]
                r = c.post("/api/act", json={"verb": "damage", "args": {"figure": target, "amount": 1}, "override": "bench"})
                if r.status_code != 200:
                    raise SystemExit(f"damage {target}: {r.status_code} {r.text[:200]}")
                ask(c, k, moved, moved_triples)
            else:
                c.post("/api/act", json={"verb": "note", "args": {"text": f"change {k}"}})  # a new state: nothing kept
                ask(c, k, per, triples)
            ask(c, k, again, again_triples)
            if k % 2:
                r = c.post("/api/do/game/heal", json={"figure": target, "amount": 1})
                if r.status_code != 200:
                    raise SystemExit(f"heal {target}: {r.status_code} {r.text[:200]}")
        report("one phone asks at a time, the first ask after a change that leaves the board (a note):", per, triples)
        report("one phone asks at a time, the first ask after a figure's change (1 damage to the target):", moved, moved_triples)
        report("one phone asks at a time, the same pair again (kept):", again, again_triples)
        goal["first_note"] = max(pct(ts, 0.99) for ts in per.values())
        goal["first"] = max(pct(ts, 0.99) for ts in moved.values())
        goal["again"] = max(pct(ts, 0.99) for ts in again.values())
        per = {"los": [], "cover": [], "attack": []}
        triples = []
        lock = threading.Lock()

        def busy(i: int) -> None:
            own: dict[str, list[float]] = {"los": [], "cover": [], "attack": []}
            mine: list[float] = []
            with httpx.Client(base_url=base, timeout=30, headers=WRITES) as h:
                for k in range(a.queries // a.phones + 1):
                    ask(h, k * a.phones + i, own, mine)
            with lock:
                for key in per:
                    per[key] += own[key]
                triples.extend(mine)

        c.post("/api/act", json={"verb": "note", "args": {"text": "before all phones ask"}})
        threads = [threading.Thread(target=busy, args=(i,)) for i in range(a.phones)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        report(f"all {a.phones} phones ask at once (each its own pairs, some asked before by another):", per, triples)
        goal["phones"] = max(pct(ts, 0.99) for ts in per.values())

        # push: through the server
        lat_sent, lat_done = [], []
        for k in range(a.changes):
            t0 = time.perf_counter()
            r = c.post("/api/act", json={"verb": "note", "args": {"text": f"push {k}"}}, headers={"x-request-id": f"bench-{k}"})
            t1 = time.perf_counter()
            seq = r.json()["event"]["seq"]
            got = _wait(phones, seq)
            lat_sent += [(t - t0) * 1000 for t in got]
            lat_done += [(t - t1) * 1000 for t in got]
            time.sleep(0.02)
        print(f"  push, a record through the server (POST /api/act) -> event at each of {a.phones} phones, {len(lat_sent)} samples:")
        print(f"    from the request sent:    p50 {pct(lat_sent, 0.5):6.1f} ms  p99 {pct(lat_sent, 0.99):6.1f} ms  max {max(lat_sent):6.1f} ms"
              "  (goal p99 <= 300 ms)")
        print(f"    from its answer received: p50 {pct(lat_done, 0.5):6.1f} ms  p99 {pct(lat_done, 0.99):6.1f} ms"
              "  (negative: the phones heard before the writer)")
        # push: another process (this one) writes the SQLite log directly, as the command line does
        lat_cli = []
        for k in range(a.changes):
            g = Game.open(game, default_library())
            try:
                ev = g.do("note", {"text": f"from the command line {k}"}, None)  # returns once committed
                t1 = time.perf_counter()
            finally:
                g.close()
            got = _wait(phones, ev.seq)
            lat_cli += [(t - t1) * 1000 for t in got]
            time.sleep(0.03)
        print(f"  push, a record by another process (the CLI's way) -> event at each phone, {len(lat_cli)} samples:")
        print(f"    from its commit: p50 {pct(lat_cli, 0.5):6.1f} ms  p99 {pct(lat_cli, 0.99):6.1f} ms  max {max(lat_cli):6.1f} ms"
              "  (the shared watcher looks every 100 ms; goal p99 <= 300 ms)")
        goal["push"] = pct(lat_sent, 0.99)
        goal["push_cli"] = pct(lat_cli, 0.99)
        print(f"  after the case: {_load()}")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    return goal


CASES = ("clone-wars-corridor", "clone-wars-example-combat", "pillar-room", "ddm-forest-field", "40x40")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--phones", type=int, default=8)
    ap.add_argument("--changes", type=int, default=40)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--case", action="append", choices=CASES, help="a case to run (again for more); all of them by default")
    a = ap.parse_args()
    results = {name: run_case(name, a) for name in (a.case or CASES)}
    print(f"goals ({_load()}):")
    for key, (label, limit) in GOALS.items():
        cells = "  ".join(f"{name} {res[key]:6.1f} ms {'met' if res[key] <= limit else 'NOT met'}" for name, res in results.items() if key in res)
        print(f"  {label} <= {limit:.0f} ms: {cells}")


if __name__ == "__main__":
    main()
