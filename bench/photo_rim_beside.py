"""Census (reading R221): a Medium figure named by the roster beside a clearly stronger base rim.

    python bench/photo_rim_beside.py /work/diag19/d437 [/work/diag19/d509 ...] [--margin 0.08] [--floor 0.15]

Reads each diagnosis photo with this checkout's `photo detect`, in process, without and with the
empty-map reference (as `bench/photo_rescore.py` does), and for every Medium or smaller figure the
roster named (no base marker) looks at the eight squares round its square: a neighbour no figure
is named on, where a figure may stand, whose round rim (:func:`assistant.photo.bases.rim_strength`,
n = 1, as :func:`assistant.photo.placement.place` reads it) is at least ``--floor`` and at least
``--margin`` clearer than the named square's. For each such naming (its clearest such neighbour) it
counts whether the named square is the figure's true square, the neighbour is, or neither: moving
the figure onto the neighbour would fix the second, break the first and leave the third wrong.
The truth is read only to score; the answer is the pipeline's own. Held-out seeds 751-764 are never read.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from assistant.coords import parse_square
from assistant.errors import AssistantError
from assistant.photo import NoGridError, detect, load_image, squares
from assistant.photo.reference import load_reference
from assistant.position.load import load_position

HELD_OUT = range(751, 765)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--margin", type=float, default=0.08, help="how much clearer the neighbour's rim is than the named square's")
    ap.add_argument("--floor", type=float, default=0.15, help="the least rim the neighbour shows")
    ap.add_argument("--orthogonal", action="store_true", help="only the four neighbours across an edge")
    a = ap.parse_args(argv)
    seen: dict[str, Any] = {}
    original = squares.place

    def wrapped(*args: Any, **kw: Any) -> Any:
        out = original(*args, **kw)
        seen.update(rims=dict(args[8] or {}), nowhere=set(args[3]), out=out)
        return out

    squares.place = wrapped
    tally: Counter[tuple[str, str]] = Counter()
    for folder in a.folders:
        for jpg in sorted(folder.glob("s????.jpg")):
            st = jpg.stem
            truth_path = jpg.with_name(f"{st}.truth.yaml")
            if int(st[1:]) in HELD_OUT or not truth_path.exists():
                continue
            true_at = {f["id"]: f["at"] for f in yaml.safe_load(truth_path.read_text())["figures"]}
            pos = load_position(jpg.with_name(f"{st}.record.yaml"))
            img = load_image(jpg)
            for mode in ("noref", "ref"):
                ref = None
                if mode == "ref":
                    try:
                        ref = load_reference(jpg.with_name(f"{st}.ref.npz"))
                    except (AssistantError, NoGridError, OSError):
                        ref = None
                seen.clear()
                try:
                    detect(img, pos, st, reference=ref)
                except NoGridError:
                    continue
                if "out" not in seen:
                    continue
                rims, named = seen["rims"], {s.at for s in seen["out"].figures}
                for s in seen["out"].figures:
                    if s.by != "roster" or pos.figure(s.id).size.footprint != 1:
                        continue
                    at = parse_square(s.at)
                    here = rims.get(s.at, 0.0)
                    beside = []
                    for dc in (-1, 0, 1):
                        for dr in (-1, 0, 1):
                            if (dc, dr) == (0, 0) or (a.orthogonal and dc and dr):
                                continue
                            if not (0 <= at.col + dc < pos.map.cols and 0 <= at.row + dr < pos.map.rows):
                                continue
                            q = at.offset(dc, dr).name
                            r = rims.get(q, 0.0)
                            if q not in named and q not in seen["nowhere"] and r >= a.floor and r >= here + a.margin:
                                beside.append((r, q))
                    if not beside:
                        continue
                    _r, q = max(beside)
                    kind = "named right" if s.at == true_at.get(s.id) else "neighbour true" if q == true_at.get(s.id) else "neither"
                    tally[mode, kind] += 1
                    print(f"{st} {mode}: {s.id} named {s.at} rim {here:.3f}, {q} rim {_r:.3f}, true {true_at.get(s.id)}: {kind}", flush=True)
    for mode in ("noref", "ref"):
        print(f"{mode}: named right {tally[mode, 'named right']}, neighbour true {tally[mode, 'neighbour true']}, neither {tally[mode, 'neither']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
