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
    args = parser.parse_args()
    checkout = args.checkout.resolve()
    if args.bytecode:  # written even where the environment says not to: that is what is measured
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "assistant")], check=True,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
                       stdout=subprocess.DEVNULL)
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


if __name__ == "__main__":
    main()
