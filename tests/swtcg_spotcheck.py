"""The SW TCG import spot check (issue 26): 30-odd units of the real LackeyCCG set files, with what
each card's text gives it written by hand in tests/fixtures/swtcg-spotcheck.yaml, compared to what
the importer makes of the same card. Used by tests/test_swtcg_import.py and bench/swtcg_import.py.

The expectations are never computed by the importer: they were written from reading each card,
and the card's text is quoted beside them (and checked against the file, so a quote that is not
the card's own is a failure, not a silent pass).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from assistant.swtcg.importers import SwtcgCardData

SPOTCHECK = Path(__file__).parent / "fixtures" / "swtcg-spotcheck.yaml"
FIELDS = ("keywords", "costs", "pilots", "grants", "grant_costs", "upkeep", "bounty", "variable", "conditional")


@dataclass(frozen=True)
class Checked:
    card: str
    ok: bool
    diffs: tuple[str, ...]


def expected() -> dict[str, Any]:
    return yaml.safe_load(SPOTCHECK.read_text(encoding="utf-8"))


def got(card: SwtcgCardData) -> dict[str, Any]:
    """What the importer gives the card, in the spot check's terms (from its table-file entry)."""
    entry = card.table_entry("u", "")
    return {
        "keywords": entry.get("keywords", {}),
        "costs": entry.get("costs", {}),
        "pilots": entry.get("pilots", ""),
        "grants": entry.get("grants", {}),
        "grant_costs": entry.get("grant_costs", {}),
        "upkeep": [list(c) for c in card.upkeep],
        "bounty": card.bounty,
        "variable": entry.get("variable", []),
        "conditional": bool(entry.get("conditional")),
    }


def _want(spec: dict[str, Any]) -> dict[str, Any]:
    empty: dict[str, Any] = {"keywords": {}, "costs": {}, "pilots": "", "grants": {}, "grant_costs": {}, "upkeep": [], "bounty": "",
                             "variable": [], "conditional": False}
    return {k: spec.get(k, empty[k]) for k in FIELDS}


def check(cards: list[SwtcgCardData]) -> tuple[list[Checked], list[Checked]]:
    """Each spot-checked unit, and each non-unit (which must have no keyword of its own)."""
    by = {(c.set, c.name): c for c in cards}
    spec = expected()
    units = []
    for u in spec["units"]:
        c = by.get((u["set"], u["name"]))
        if c is None:
            units.append(Checked(f"{u['set']} {u['name']}", False, ("not in the files",)))
            continue
        diffs = [] if c.text.strip() == u["text"].strip() else [f"text: quoted {u['text']!r}, the file has {c.text!r}"]
        have, want = got(c), _want(u)
        diffs += [f"{k}: expected {want[k]!r}, imported {have[k]!r}" for k in FIELDS if have[k] != want[k]]
        units.append(Checked(f"{u['set']} {u['name']}", not diffs, tuple(diffs)))
    others = []
    for n in spec["non_units"]:
        c = by.get((n["set"], n["name"]))
        if c is None:
            others.append(Checked(f"{n['set']} {n['name']}", False, ("not in the files",)))
            continue
        diffs = [] if c.text.strip() == n["text"].strip() else [f"text: the file has {c.text!r}"]
        diffs += [f"keywords: {dict(c.keywords)!r} on a {c.kind} card"] if c.keywords else []
        others.append(Checked(f"{n['set']} {n['name']}", not diffs, tuple(diffs)))
    return units, others
