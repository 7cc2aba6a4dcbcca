"""Benchmark: the SW TCG import of the real LackeyCCG set files (issue 26). Prints numbers; asserts nothing.

    python bench/swtcg_import.py [FOLDER]      # default: $SWTCG_DATA or /work/data/swtcg

The files are the community's (repository SWTCG/SWTCG-LACKEY, folder starwars/sets/); the
project ships none of them. Prints: set files imported whole / total, cards imported / partial /
refused, the spot check's score (tests/fixtures/swtcg-spotcheck.yaml: units whose keywords,
costs, pilot kinds, grants, Upkeep, Bounty and variable stats match what was written by hand from
the card's text) and the time the whole folder takes.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from assistant.cardgame.importers import ImportFileError, read_card_file
from assistant.importreport import ImportedItem
from assistant.swtcg.importers import load_lackey
from tests.swtcg_spotcheck import check


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SWTCG_DATA", "/work/data/swtcg"))
    files = sorted(folder.glob("*.txt"))
    if not files:
        print(f"no set files in {folder}: bring them first (see docs/swtcg-import.md)")
        return
    whole, cards = 0, []
    counts = {"imported": 0, "partial": 0, "refused": 0}
    start = time.perf_counter()
    for f in files:
        items: list[ImportedItem] = []
        try:
            text, _notes = read_card_file(f)
            got, _unused = load_lackey(text, f.name, [], items)
        except ImportFileError as e:
            print(f"  {f.name}: refused whole: {e}")
            continue
        whole += bool(got)
        cards += got
        for i in items:
            counts[i.status] += 1
        c = {s: sum(i.status == s for i in items) for s in counts}
        print(f"  {f.name:<12} {len(items):>4} cards: {c['imported']:>4} imported, {c['partial']:>3} partial, {c['refused']:>2} refused")
    took = time.perf_counter() - start
    units, others = check(cards)
    print(f"set files imported whole: {whole} / {len(files)}")
    print(f"cards: {sum(counts.values())} — imported {counts['imported']}, partial {counts['partial']}, refused {counts['refused']}")
    print(f"spot check: {sum(u.ok for u in units)} / {len(units)} units right; non-units without keywords: {sum(o.ok for o in others)} / {len(others)}")
    for u in units + others:
        if not u.ok:
            print(f"  wrong: {u.card}: {'; '.join(u.diffs)}")
    print(f"time: {took * 1000:.0f} ms for {len(files)} files")


if __name__ == "__main__":
    main()
