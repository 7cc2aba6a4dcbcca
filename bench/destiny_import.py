"""Benchmark: the Destiny importer on the real swdestinydb set files. Prints numbers; asserts nothing.

    python bench/destiny_import.py [FOLDER] [--json]

FOLDER (default $DESTINY_DATA, else /work/data/destiny) holds the set files (``AW.json``, ...);
a JSON schema beside them (``card_schema.json``) is not a set file and is left out. Prints, for
the issue's goals: how many set files import whole, the share of cards playable (imported, with
or without a part not modelled), the partial cards by what is not modelled, the refused cards,
and how many keywords landed on a card that lacks them.

The keyword count is checked apart from the importer's own rule: a keyword the importer gave a
card counts against it when every sentence of the card's text that names the keyword also says
that something *has*, *gains* or *is given* it, or names it as a condition ("with Guardian") --
the words of a card that mentions or grants a keyword rather than having it. ``--verbose`` lists
every card whose text names a keyword, with what it was given, for a reading by hand.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

from assistant.cardgame.importers import ImportFileError, read_card_file
from assistant.destiny.importers import read_swdestinydb

KEYWORDS = ("guardian", "ambush", "redeploy")
#: the words of a sentence that mentions or grants a keyword instead of being the card's own
GRANTING = re.compile(r"\b(has|have|gains?|giv(?:e|es|ing)|with|keyword|that)\b", re.I)


def _sentences(text: str) -> list[str]:
    plain = re.sub(r"<[^>]+>", "", text)
    return [s for line in plain.splitlines() for s in re.split(r"(?<=\.)\s+", line) if s.strip()]


def lacks(keyword: str, text: str) -> bool:
    """Does every sentence naming ``keyword`` only mention or grant it?"""
    naming = [s for s in _sentences(text) if re.search(rf"\b{keyword}\b", s, re.I)]
    return not naming or all(GRANTING.search(s) for s in naming)


def measure(folder: Path, verbose: bool = False) -> dict[str, object]:
    # a checkout of swdestinydb-json-data keeps its set files in set/ (its top holds factions.json
    # and the like), as `destiny import` reads it
    folder = folder / "set" if (folder / "set").is_dir() else folder
    files = sorted(f for f in folder.glob("*.json") if "schema" not in f.name.lower())
    whole, cards, items, refused_files = 0, 0, [], []
    wrong: list[str] = []
    mentioned: list[str] = []
    for f in files:
        text, _notes = read_card_file(f)
        try:
            got, report = read_swdestinydb(text, f.name)
        except ImportFileError as e:
            refused_files.append(str(e))
            continue
        whole += 1
        items += report.items
        raw = {c["code"]: c.get("text") or "" for c in json.loads(text) if isinstance(c, dict) and isinstance(c.get("code"), str)}
        for c in got:
            cards += 1
            for k in c.keywords:
                if lacks(k, raw.get(c.code, "")):
                    wrong.append(f"{c.label}: {k}")
            if any(re.search(rf"\b{k}\b", raw.get(c.code, ""), re.I) for k in KEYWORDS):
                mentioned.append(f"{c.label}: given {list(c.keywords)} | {raw.get(c.code, '')[:100]!r}")
    counts = Counter(i.status for i in items)
    total = len(items)
    playable = counts["imported"] + counts["partial"]
    result: dict[str, object] = {
        "folder": str(folder),
        "files": len(files),
        "files_whole": whole,
        "files_refused": refused_files,
        "cards": total,
        "imported": counts["imported"],
        "partial": counts["partial"],
        "refused": counts["refused"],
        "playable_percent": round(100 * playable / total, 2) if total else 0.0,
        "partial_by_reason": dict(Counter(re.sub(r"'[^']*'", "'…'", w) for i in items if i.status == "partial" for w in i.why).most_common()),
        "refused_cards": [f"{i.card}: {'; '.join(i.why)}" for i in items if i.status == "refused"],
        "keywords_on_cards_that_lack_them": len(wrong),
        "keywords_wrong": wrong,
    }
    if verbose:
        result["cards_naming_a_keyword"] = mentioned
    return result


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    folder = Path(args[0] if args else os.environ.get("DESTINY_DATA") or "/work/data/destiny")
    if not folder.is_dir():
        print(f"{folder}: no such folder (give the folder of the swdestinydb set files)", file=sys.stderr)
        raise SystemExit(2)
    r = measure(folder, "--verbose" in argv)
    if "--json" in argv:
        print(json.dumps(r, indent=2, ensure_ascii=False))
        return
    print(f"set files imported whole: {r['files_whole']} of {r['files']}")
    print(f"cards: {r['cards']}; playable {r['imported']} + {r['partial']} partial = {r['playable_percent']} %; refused {r['refused']}")
    for why, n in r["partial_by_reason"].items():  # type: ignore[attr-defined]
        print(f"  partial {n:>4}  {why}")
    for line in r["refused_cards"]:  # type: ignore[attr-defined]
        print(f"  refused  {line}")
    print(f"keywords on a card that lacks them: {r['keywords_on_cards_that_lack_them']}")
    for line in r["keywords_wrong"]:  # type: ignore[attr-defined]
        print(f"  {line}")
    for line in r.get("cards_naming_a_keyword", []):  # type: ignore[attr-defined]
        print(f"  names a keyword: {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
