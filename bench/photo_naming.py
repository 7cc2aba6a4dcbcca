"""Who is who with a record out of date, vision perfect: how often `photo check` agrees a moved
figure at its old recorded square without listing it (issue 28: "none silently at its old square").

    python bench/photo_naming.py --n 2000

Pure and fast (no photo is rendered): each case is a generated position (the truth), a record
out of date drawn from it as `bench/photo.py` draws one (about half the figures moved 1-6 squares,
king's moves), and a perfect reading -- every base's squares read as occupied (0.99), the rest
empty (0.01) -- with each figure's base marker read with probability ``--marker-share`` (the rest
unmarked or hidden). `placement.place` names who is who from the record, `compare.compare` gives
the verdicts. Counted, for the moved figures: agreed at their old square and not listed (SILENT,
goal 0), listed (`uncertain`, or the square among the listed), at their true square; for the
figures that did not move: agreed, or listed (what the doubt costs a judge); squares listed a board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from photo import stale_record  # the bench's own record out of date

from assistant.coords import Square
from assistant.photo import PhotoResult
from assistant.photo.compare import compare
from assistant.photo.figures import Seen
from assistant.photo.placement import place
from assistant.photo.synth import random_position


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000, help="generated positions")
    ap.add_argument("--marker-share", type=float, default=0.5, help="share of the figures whose base marker is read")
    args = ap.parse_args()
    silent = listed = at_true = moved_total = other = 0
    still_agreed = still_listed = still_total = 0
    list_lengths: list[int] = []
    for i in range(args.n):
        rng = np.random.default_rng(5_000_000 + i)
        truth = random_position(rng, busy=bool(rng.random() < 0.5))
        stale, moved = stale_record(truth, np.random.default_rng(6_000_000 + i))
        occupied = {sq.name for f in truth.figures for sq in f.space}
        scores = {Square(c, r).name: (0.99 if Square(c, r).name in occupied else 0.01) for c in range(truth.map.cols) for r in range(truth.map.rows)}
        nowhere = {sq.name for kind in truth.edition.board.no_standing for sq in truth.map.squares.get(kind, ())}
        by_marker = [Seen(f.id, f.at.name, 1.0, "marker") for f in truth.figures if rng.random() < args.marker_share]
        placed = place(stale, scores, by_marker, nowhere)
        doubted = {s for s, _v in placed.uncertain}
        seen = {s.id: s for s in placed.figures}
        res = PhotoResult("n", True, 0.0, list(placed.figures), list(placed.occupied), [{"square": s, "confidence": v} for s, v in placed.uncertain],
                          0.0, list(placed.notes), list(placed.not_seen), placed.more_doubtful)
        rows = {r.figure: r for r in compare(stale, res).rows if r.figure}
        list_lengths.append(len(placed.uncertain) + placed.more_doubtful)
        for f in truth.figures:
            r = rows[f.id]
            old = stale.figure(f.id).at.name
            if f.id in moved:
                moved_total += 1
                if r.photo is not None and r.photo.name == old and r.verdict == "agree" and old not in doubted:
                    silent += 1
                elif r.verdict == "uncertain" or (r.photo is not None and r.photo.name in doubted):
                    listed += 1
                elif f.id in seen and seen[f.id].at == f.at.name:
                    at_true += 1
                else:
                    other += 1
            else:
                still_total += 1
                still_agreed += r.verdict == "agree"
                still_listed += r.verdict == "uncertain"
    print(f"{args.n} generated positions, record out of date, vision perfect, base markers read on {args.marker_share:.0%} of the figures")
    print(f"  moved figures {moved_total}: SILENTLY AGREED AT THEIR OLD SQUARE {silent} (goal 0), listed {listed}, moved to their true square {at_true}, "
          f"other {other}")
    print(f"  figures that did not move {still_total}: agreed {still_agreed}, listed {still_listed}")
    print(f"  doubtful squares a board: median {int(np.median(list_lengths))}, mean {np.mean(list_lengths):.2f}, max {max(list_lengths)}")


if __name__ == "__main__":
    main()
