"""Benchmark: the command line's start-up and a photo's whole call, as the player waits for them.

    nice python bench/photo_startup.py DIR [sNNNN ...] [--runs 3] [--checkout PATH]

``python -m assistant`` is run in the checkout that holds this script (or ``--checkout``'s, e.g.
another worktree at the commit before a change, to time before and after on the same photos), with
that checkout first on PYTHONPATH. Prints numbers; asserts nothing. For each of:

- ``python -m assistant --help`` and ``python -m assistant photo --help`` (start-up alone);
- ``photo detect DIR/sNNNN.jpg -p DIR/sNNNN.record.yaml --json``, without and (where
  ``DIR/sNNNN.ref.npz`` exists) with ``--reference``;

the wall time and the child's CPU time (user + system, every thread counted), the least of
``--runs`` runs (the machine is shared: the least is the call's own cost), beside ``python -c
pass``. For the detections also the answer's own ``seconds`` (the detection, start-up excluded),
and a digest of the answer less its ``seconds`` so two checkouts' answers can be compared.
DIR is a folder as ``bench/independent.py`` writes (a copy: nothing is written there).

``--against PATH`` times another checkout (e.g. the commit before a change) beside this one, call
by call: each photo's call run in the one, then in the other, ``--runs`` times over (the machine's
load drifts within minutes: two runs of the same code a few minutes apart differed by 0.08 s wall a
call, round 29), and each checkout's least kept; the answers' digests are compared.

``--bytecode`` first compiles the checkout's modules (``python -m compileall``, into its ignored
``__pycache__`` folders), as an installed package has them. Without it, where
``PYTHONDONTWRITEBYTECODE`` is set (this machine's environment sets it) every call compiles every
module it imports from source: about 0.3 s of CPU a ``photo detect`` on the 2-core machine, more
than the start-up it is measured against (round 11 of issue 28).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str], checkout: Path = ROOT) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its stdout) of one run of ``argv`` in ``checkout``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def best(argv: list[str], runs: int, checkout: Path = ROOT) -> tuple[float, float, str]:
    """The least wall and the least CPU over ``runs`` runs, and the last run's stdout."""
    results = [timed(argv, checkout) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), results[-1][2]


def digest(answer: str) -> str:
    """A short digest of a JSON answer less its timing, to compare two checkouts' answers."""
    try:
        data = json.loads(answer)
    except json.JSONDecodeError:
        return "not-json"
    if isinstance(data, dict):
        data.pop("seconds", None)
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("seeds", nargs="*", help="sNNNN names (default: every photo in the folder)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to time (default: this one)")
    parser.add_argument("--bytecode", action="store_true", help="compile the checkout's modules first")
    parser.add_argument("--against", type=Path, help="another checkout, timed call by call beside this one")
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    if args.bytecode:  # written even where the environment says not to: that is what is measured
        for folder in (checkout, *([args.against.resolve()] if args.against else [])):
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(folder / "assistant")], check=True,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                           stdout=subprocess.DEVNULL)
    if args.against is not None:
        interleaved(args.folder, args.seeds, args.against.resolve(), checkout, args.runs)
        return
    py = [sys.executable]
    seeds = args.seeds or sorted(p.stem for p in args.folder.glob("s[0-9][0-9][0-9][0-9].jpg"))
    base_wall, base_cpu, _ = best([*py, "-c", "pass"], args.runs)
    print(f"checkout {checkout}, bytecode {'compiled first' if args.bytecode else 'as found'}")
    print(f"{'call':42s} {'wall s':>7s} {'cpu s':>7s} {'answer s':>8s}  digest")
    print(f"{'python -c pass':42s} {base_wall:7.3f} {base_cpu:7.3f}")
    for label, argv in (("--help", ["--help"]), ("photo --help", ["photo", "--help"])):
        wall, cpu, _ = best([*py, "-m", "assistant", *argv], args.runs, checkout)
        print(f"{label:42s} {wall:7.3f} {cpu:7.3f}")
    walls: list[float] = []
    cpus: list[float] = []
    for seed in seeds:
        photo, record, ref = (args.folder / f"{seed}{ext}" for ext in (".jpg", ".record.yaml", ".ref.npz"))
        for mode, extra in (("noref", []), ("ref", ["--reference", str(ref)])):
            if mode == "ref" and not ref.exists():
                continue
            wall, cpu, out = best([*py, "-m", "assistant", "photo", "detect", str(photo), "-p", str(record),
                                   *extra, "--json"], args.runs, checkout)
            try:
                seconds = float(json.loads(out).get("seconds", float("nan")))
            except (json.JSONDecodeError, AttributeError, TypeError, ValueError):
                seconds = float("nan")
            walls.append(wall)
            cpus.append(cpu)
            print(f"{'photo detect ' + seed + ' ' + mode:42s} {wall:7.3f} {cpu:7.3f} {seconds:8.3f}  {digest(out)}")
    if walls:
        print(f"{'photo detect, mean (max)':42s} {sum(walls) / len(walls):7.3f} {sum(cpus) / len(cpus):7.3f}"
              f"  max wall {max(walls):.3f}, max cpu {max(cpus):.3f}")


def _detect_argv(folder: Path, seed: str, mode: str) -> list[str]:
    photo, record, ref = (folder / f"{seed}{ext}" for ext in (".jpg", ".record.yaml", ".ref.npz"))
    return [sys.executable, "-m", "assistant", "photo", "detect", str(photo), "-p", str(record),
            *(["--reference", str(ref)] if mode == "ref" else []), "--json"]


def interleaved(folder: Path, seeds: list[str], before: Path, after: Path, runs: int) -> None:
    """Each photo's ``photo detect`` in ``before`` and in ``after`` by turns, ``runs`` times over:
    the least wall and CPU of each, the answers' digests compared, and the machine's load."""
    seeds = seeds or sorted(p.stem for p in folder.glob("s[0-9][0-9][0-9][0-9].jpg"))
    calls = [(seed, mode) for seed in seeds for mode in ("noref", "ref")
             if mode == "noref" or (folder / f"{seed}.ref.npz").exists()]
    print(f"before {before}\nafter  {after}\nload average at the start: {os.getloadavg()}")
    print(f"{'call':30s} {'wall before':>11s} {'after':>7s} {'cpu before':>10s} {'after':>7s}  same answer")
    totals: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
    differing = 0
    for seed, mode in calls:
        argv = _detect_argv(folder, seed, mode)
        got: dict[str, list[tuple[float, float, str]]] = {"before": [], "after": []}
        for _ in range(runs):
            for name, checkout in (("before", before), ("after", after)):
                got[name].append(timed(argv, checkout))
        least = {name: (min(r[0] for r in rs), min(r[1] for r in rs)) for name, rs in got.items()}
        same = digest(got["before"][-1][2]) == digest(got["after"][-1][2])
        differing += not same
        for name in totals:
            totals[name].append(least[name])
        print(f"{seed + ' ' + mode:30s} {least['before'][0]:11.3f} {least['after'][0]:7.3f} {least['before'][1]:10.3f} "
              f"{least['after'][1]:7.3f}  {'yes' if same else 'NO'}")
    for name, rows in totals.items():
        walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
        print(f"{name:6s}: {len(rows)} calls, wall {sum(walls) / len(rows):.3f} s a call (max {max(walls):.3f}, "
              f"over 1.0 s: {sum(w > 1.0 for w in walls)}), CPU {sum(cpus) / len(rows):.3f} s (max {max(cpus):.3f})")
    print(f"answers differing: {differing} of {len(calls)}; load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
