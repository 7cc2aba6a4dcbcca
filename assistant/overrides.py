"""The user's own numbers for cards: ``<user data folder>/card-overrides.yaml`` (format
``tabletop-card-overrides/1``), written by ``cards set`` and ``cards commander`` and laid over the
card library every time it is read (:func:`assistant.cards.load_folders`).

A card read from a source keeps what the source says; a number the source does not give (or a
commander effect a database only names) is entered once, here, with where it came from::

    format: tabletop-card-overrides/1
    overrides:
      - game: swm
        name: Obi-Wan Kenobi, Jedi Master
        set: Revenge of the Sith (2004 rules)   # optional: without it the name must be unique
        stats: {cost: 42}
        commander_effect:
          text: "Followers within 6 squares get +1 Attack."
          effects: [{affects: followers, range: 6, attack: 1}]
        source: read off my card

This module knows the file (reading, checking, writing); it imports nothing of the card records,
which :mod:`assistant.cards` lays these entries over.

>>> stat_value("swm", "attack", "14")
14
>>> stat_value("ddm", "melee_attack", "12/7")
(12, 7)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import AssistantError, CardLibraryError, Problem, did_you_mean
from .i18n import _
from .resources import user_data_dir
from .yamlio import LineMap, YamlReadError, dump_yaml, parse_yaml, problems_from_validation, read_text, write_text_atomic

OVERRIDES_FORMAT = "tabletop-card-overrides/1"
OVERRIDES_FILE = "card-overrides.yaml"

#: the numbers ``cards set`` may keep, per game, and the card field each one sets
STAT_KEYS: dict[str, tuple[str, ...]] = {
    "swm": ("cost", "hp", "defense", "attack", "damage", "speed", "force"),
    "ddm": ("cost", "level", "speed", "ac", "hp", "commander_rating", "melee_attack", "melee_damage", "ranged_attack", "ranged_damage"),
}
#: keys whose value is one number per attack of a DDM attack line (``12/7``)
LINE_KEYS = frozenset({"melee_attack", "melee_damage", "ranged_attack", "ranged_damage"})
#: keys that may be below 0 (an attack bonus); every other number is a count
SIGNED_KEYS = frozenset({"attack", "melee_attack", "ranged_attack"})

StatValue = int | tuple[int, ...]


def overrides_path() -> Path:
    """Where the user's card overrides live."""
    return user_data_dir() / OVERRIDES_FILE


@dataclass(frozen=True)
class CardOverride:
    """One card's entry: which card, the numbers, the commander effect (as the file writes it:
    :mod:`assistant.cards` reads it into its record), and where the user took them from."""

    game: str
    name: str
    set: str | None = None
    stats: Mapping[str, StatValue] = field(default_factory=dict)
    commander_effect: Mapping[str, Any] | None = None
    source: str = ""
    #: where in the file (for problems found when the entry is laid over the library)
    index: int = 0

    def matches(self, game: str, name: str, set_: str) -> bool:
        same_set = self.set is None or self.set.strip().lower() == set_.strip().lower()
        return game == self.game and name.strip().lower() == self.name.strip().lower() and same_set


def stat_value(game: str, key: str, text: str | int) -> StatValue:
    """A value ``cards set`` keeps for ``key``: a whole number, or for a DDM attack line one per
    attack (``12/7``). Refused plainly otherwise."""
    if key not in STAT_KEYS.get(game, ()):
        raise AssistantError(_("{key!r} is not a number a {game} card keeps; keys: {names}{hint}").format(
            key=key, game=game.upper(), names=", ".join(STAT_KEYS.get(game, ())), hint=did_you_mean(key, STAT_KEYS.get(game, ()))))
    if isinstance(text, bool):
        raise AssistantError(_("{key}={value!r}: not a whole number").format(key=key, value=text))
    if isinstance(text, int):
        parts = [text]
    else:
        pieces = str(text).strip().split("/") if key in LINE_KEYS else [str(text).strip()]
        if not all(re.fullmatch(r"[+-]?\d{1,6}", p.strip()) for p in pieces):
            shape = _("a whole number, or one per attack as N/N") if key in LINE_KEYS else _("a whole number")
            raise AssistantError(_("{key}={value!r}: not {shape}").format(key=key, value=text, shape=shape))
        parts = [int(p) for p in pieces]
    if key not in SIGNED_KEYS and any(p < 0 for p in parts):
        raise AssistantError(_("{key}={value!r}: never below 0").format(key=key, value=text))
    if abs(max(parts, key=abs)) >= 10**6:
        raise AssistantError(_("{key}={value!r}: not a card's number").format(key=key, value=text))
    return tuple(parts) if key in LINE_KEYS and len(parts) > 1 else parts[0]


# --- reading ---------------------------------------------------------------------------------


def read_overrides(path: Path | None = None) -> tuple[list[CardOverride], list[Problem], LineMap]:
    """The entries of the overrides file (none when there is no file) and every problem found in
    it, each with its line. pydantic checks the file's shape (imported only when a file exists)."""
    path = path or overrides_path()
    if not path.is_file():
        return [], [], LineMap()
    try:
        text, name = read_text(path)
        data, lines, problems = parse_yaml(text, name)
    except YamlReadError as exc:
        return [], list(exc.problems), LineMap()
    if data is None:
        return [], problems, lines
    from pydantic import ValidationError  # start-up time: only when the user has overrides

    from .overridevalidation import OverridesFile  # start-up time: pydantic (0.1 s) only when an overrides file is read

    try:
        parsed = OverridesFile.model_validate(data)
    except ValidationError as exc:
        return [], problems + problems_from_validation(exc, lines, name, OverridesFile), lines
    entries: list[CardOverride] = []
    for i, e in enumerate(parsed.overrides):
        stats: dict[str, StatValue] = {}
        bad = False
        for key, raw in e.stats.items():
            try:
                stats[key] = stat_value(e.game, key, raw)
            except AssistantError as exc:
                problems.append(Problem(str(exc), name, lines.line(("overrides", i, "stats", key)), f"overrides[{i}].stats.{key}", raw))
                bad = True
        if not bad:
            entries.append(CardOverride(e.game, e.name, e.set, stats, e.commander_effect, e.source, i))
    return entries, problems, lines


# --- writing ---------------------------------------------------------------------------------


def save_override(game: str, name: str, set_: str | None, *, stats: Mapping[str, StatValue] | None = None,
                  commander_effect: Mapping[str, Any] | None = None, source: str = "", path: Path | None = None) -> Path:
    """Add to (or replace in) the entry of this card, then write the whole file atomically. A file
    that does not read is refused as it is, never overwritten."""
    path = path or overrides_path()
    entries, problems, _lines = read_overrides(path)
    errors = [p for p in problems if p.severity == "error"]
    if errors:

        raise CardLibraryError(errors)
    raw: list[dict[str, Any]] = [_entry_json(e) for e in entries]
    found = next((r for r in raw if r["game"] == game and r["name"].lower() == name.lower() and (r.get("set") or "").lower() == (set_ or "").lower()), None)
    if found is None:
        found = {"game": game, "name": name, **({"set": set_} if set_ else {}), "stats": {}, "source": ""}
        raw.append(found)
    if stats:
        found.setdefault("stats", {}).update({k: "/".join(map(str, v)) if isinstance(v, tuple) else v for k, v in stats.items()})
    if commander_effect is not None:
        found["commander_effect"] = dict(commander_effect)
    if source:
        found["source"] = source
    header = ("# Your own numbers for cards, laid over the card library (tabletop-assistant).\n"
              "# Written by 'cards set' and 'cards commander'; you may edit it by hand.\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, header + dump_yaml({"format": OVERRIDES_FORMAT, "overrides": raw}))
    return path


def _entry_json(e: CardOverride) -> dict[str, Any]:
    out: dict[str, Any] = {"game": e.game, "name": e.name}
    if e.set:
        out["set"] = e.set
    out["stats"] = {k: "/".join(map(str, v)) if isinstance(v, tuple) else v for k, v in e.stats.items()}
    if e.commander_effect is not None:
        out["commander_effect"] = dict(e.commander_effect)
    out["source"] = e.source
    return out


def describe(stats: Mapping[str, StatValue]) -> str:
    return ", ".join(f"{k} {'/'.join(map(str, v)) if isinstance(v, tuple) else v}" for k, v in stats.items())


__all__ = ["LINE_KEYS", "OVERRIDES_FORMAT", "STAT_KEYS", "CardOverride", "describe", "overrides_path", "read_overrides",
           "save_override", "stat_value"]
