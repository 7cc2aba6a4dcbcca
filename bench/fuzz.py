"""Benchmark: the bad-input sweep. Prints numbers; asserts nothing.

    python bench/fuzz.py [--n 100000] [--workers 2] [--family position] [--seed 0]

Runs generated bad inputs of every family (``tests/fuzzcases.py``) through the CLI in process
and counts the defects: exits other than 0, 2 (3 for 'check'), tracebacks or internal errors,
and ``--json`` calls that print no single JSON object. Defects are grouped by cause, each with
one reproducing argument vector.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import concurrent.futures.process
import faulthandler
import multiprocessing
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzzcases import FAMILIES, run_case


def _work(job: tuple[list[tuple[str, int]], str]) -> list[tuple[str, str, list[str], str]]:
    cases, base = job
    faulthandler.enable()  # a crash in a library prints where Python was (on the bench's stderr)
    work = Path(tempfile.mkdtemp(dir=base))
    last = Path(base) / f"last-{os.getpid()}"
    out = []
    for family, seed in cases:
        last.write_text(f"{family} {seed}")  # what ran when a crash ends the process
        o = run_case(family, seed, work)
        if o.problem:
            key = re.sub(r"\d+", "N", o.problem + " | " + (re.findall(r"internal error \(([^)]*)", o.output) or [o.output[-120:]])[0])[:200]
            out.append((family, key, o.args, f"[seed {seed}] " + o.output[-400:]))
    return out


def _crashed(base: str, pending: list[list[tuple[str, int]]]) -> tuple[str, int] | None:
    """The case that was running when a worker died (a segmentation fault), from its note."""
    done = {(f, s) for chunk in pending for f, s in chunk}
    for note in Path(base).glob("last-*"):
        family, seed = note.read_text().split()
        note.unlink()
        if (family, int(seed)) in done:
            return family, int(seed)
    return None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--family", choices=FAMILIES)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    families = [a.family] if a.family else list(FAMILIES)
    cases = [(families[i % len(families)], a.seed + i) for i in range(a.n)]
    chunks = [cases[i:i + 200] for i in range(0, len(cases), 200)]
    t0 = time.perf_counter()
    defects: list[tuple[str, str, list[str], str]] = []
    seen: set[str] = set()
    pending = chunks[:]
    ran = 0
    with tempfile.TemporaryDirectory() as base:
        while pending:
            # a worker that dies (a crash in a library) breaks the pool: the case it ran is a
            # defect, the rest of its chunk and the chunks not finished run in a new pool
            with concurrent.futures.ProcessPoolExecutor(a.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                futures = {pool.submit(_work, (c, base)): i for i, c in enumerate(pending)}
                finished: set[int] = set()
                try:
                    for fut in concurrent.futures.as_completed(futures):
                        got = fut.result()
                        finished.add(futures[fut])
                        ran += len(pending[futures[fut]])
                        defects.extend(got)
                        for f, key, args, out in got:  # a new cause at once: a run cut short still says what it found
                            if key not in seen:
                                seen.add(key)
                                print(f"  new cause ({f}): {key}\n    {args}\n    {out.strip()[-300:]}", flush=True)
                        if len(finished) % 10 == 0:
                            print(f"  {ran} cases, {len(defects)} defects, {time.perf_counter() - t0:.0f} s", flush=True)
                except concurrent.futures.process.BrokenProcessPool:
                    rest = [c for i, c in enumerate(pending) if i not in finished]
                    case = _crashed(base, rest)
                    if case is None:
                        raise
                    defects.append((case[0], "the process crashed", [f"seed {case[1]}"], "a worker died (a signal such as SIGSEGV)"))
                    print(f"  new cause ({case[0]}): the process crashed at seed {case[1]}", flush=True)
                    for i, c in enumerate(rest):
                        if case in c:
                            ran += c.index(case) + 1
                            rest[i] = c[c.index(case) + 1:]
                    pending = [c for c in rest if c]
                    continue
                pending = []
    dt = time.perf_counter() - t0
    by_family = collections.Counter(f for f, *_ in defects)
    by_cause: dict[str, list] = collections.defaultdict(list)
    for f, key, args, out in defects:
        by_cause[key].append((f, args, out))
    print(f"{a.n} cases in {dt:.0f} s ({a.n / dt:.0f}/s): {len(defects)} defects in {len(by_cause)} causes")
    for fam in families:
        print(f"  {fam}: {by_family.get(fam, 0)} defects")
    for key, items in sorted(by_cause.items(), key=lambda kv: -len(kv[1])):
        f, args, out = items[0]
        print(f"\n[{len(items)}] {key}\n    e.g. ({f}) {args}\n    {out.strip()[-300:]}")


if __name__ == "__main__":
    main()
