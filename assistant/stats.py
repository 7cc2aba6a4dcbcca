"""A figure's statistics, as a position file's ``stats:`` section and a stat card name them.

Apart from :mod:`assistant.model` (which re-exports :class:`Stats`) so that the card library, which
the board model names for its cards, can build stats without importing the model back.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class Stats:
    """Figure statistics as the position file's ``stats:`` section names them.

    ``None`` means "not given here"; in effective stats (card + overrides) it means the
    value is unknown.
    """

    hp: int | None = None
    defense: int | None = None  # DDM: armor class
    attack: int | None = None  # DDM: first melee attack bonus
    damage: int | None = None
    ranged_attack: int | None = None
    ranged_damage: int | None = None
    speed: int | None = None
    force: int | None = None  # SWM: Force points now
    level: int | None = None  # DDM
    commander_rating: int | None = None  # DDM
    abilities: tuple[str, ...] | None = None

    def overlay(self, over: Stats) -> Stats:
        """These stats with every value given in ``over`` replacing ours."""
        changes = {f.name: getattr(over, f.name) for f in fields(over) if getattr(over, f.name) is not None}
        # nothing given (most figures): these very stats, frozen, rather than a copy (asked per figure per rule)
        return replace(self, **changes) if changes else self

    def given(self) -> dict[str, object]:
        """The values that are set, in declaration order."""
        out: dict[str, object] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None:
                out[f.name] = list(v) if isinstance(v, tuple) else v
        return out
