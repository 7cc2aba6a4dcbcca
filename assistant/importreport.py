"""What an import of community card data did, card by card: the report every importer returns.

An importer never refuses a whole file for one card it cannot read: each card is *imported*,
*imported with a part not modelled* (``partial``: the card is usable, and says which part the
engine does not apply), or *refused* (the card is left out, and says why). The report counts them
and lists every partial and refused card with its reasons, as a table and as JSON.

>>> r = ImportReport("set/AW.json", "destiny", (
...     ImportedItem("01001 Captain Phasma", "imported"),
...     ImportedItem("01002 Hired Gun", "partial", ("die side 'XRD': X is set by the card",)),
...     ImportedItem("01003 ?", "refused", ("no name",)),
... ))
>>> r.counts()
{'imported': 1, 'partial': 1, 'refused': 1, 'total': 3}
>>> r.to_json()["refused"]
[{'card': '01003 ?', 'why': ['no name']}]
>>> print("\\n".join(r.lines()))
set/AW.json: 3 cards: 1 imported, 1 imported with a part not modelled, 1 refused
  partial  01002 Hired Gun: die side 'XRD': X is set by the card
  refused  01003 ?: no name
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .i18n import _, n_

Status = Literal["imported", "partial", "refused"]
STATUSES: tuple[Status, ...] = ("imported", "partial", "refused")


@dataclass(frozen=True)
class ImportedItem:
    """One card (or figure) of the file and what became of it."""

    #: how the report names it: the card's name, with its code or set where the file has one
    card: str
    status: Status
    #: partial: each part not modelled; refused: why it was left out; imported: empty
    why: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """Every card of one imported file, and notes on the file as a whole (its encoding, columns
    it has that the importer does not read)."""

    source: str
    game: str
    items: tuple[ImportedItem, ...]
    notes: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = {s: 0 for s in STATUSES}
        for item in self.items:
            counts[item.status] += 1
        return {**counts, "total": len(self.items)}

    def of(self, status: Status) -> list[ImportedItem]:
        return [i for i in self.items if i.status == status]

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "game": self.game,
            "counts": self.counts(),
            "partial": [{"card": i.card, "why": list(i.why)} for i in self.of("partial")],
            "refused": [{"card": i.card, "why": list(i.why)} for i in self.of("refused")],
            "notes": list(self.notes),
        }

    def summary(self) -> str:
        c = self.counts()
        # "1 card", never "1 cards"; Polish and Czech agree the noun with the number (2 karty, 5 kart)
        return n_("{source}: {total} card: {imported} imported, {partial} imported with a part not modelled, {refused} refused",
                  "{source}: {total} cards: {imported} imported, {partial} imported with a part not modelled, {refused} refused",
                  c["total"]).format(source=self.source, **c)

    def lines(self, limit: int | None = None) -> list[str]:
        """The summary, then one line per partial or refused card (the first ``limit`` of them,
        and how many more), then the notes."""
        rows = [(i.status, i) for i in self.items if i.status != "imported"]
        shown = rows if limit is None else rows[:limit]
        lines = [self.summary()]
        for status, item in shown:
            label = _("partial") if status == "partial" else _("refused")
            lines.append(f"  {label:<8} {item.card}: {'; '.join(item.why)}")
        if len(shown) < len(rows):
            lines.append(_("  ... and {n} more (all of them under --json)").format(n=len(rows) - len(shown)))
        lines += [_("  note: {note}").format(note=n) for n in self.notes]
        return lines


def merge(reports: list[ImportReport], source: str, game: str) -> ImportReport:
    """Several files' reports as one (a folder of set files)."""
    return ImportReport(
        source, game, tuple(i for r in reports for i in r.items), tuple(f"{r.source}: {n}" for r in reports for n in r.notes)
    )
