"""Golden scenarios for the card games: a table, the commands that set it up, one question,
and the answer the rules give. A scenario file (YAML)::

    case: D-07                       # the digest's test case
    rule: Destiny P6 › Osłony        # what the case checks, as the rulebook names it
    game: destiny                    # or swtcg
    table: _heroes.yaml              # a table file beside the scenario, or the table inline
    given: [A shield 2 -> han]       # commands that bring the table to the case's premise
    when: B damage 3 -> han          # the command asked about (or a list of them)
    then: {card.han.damage: 1}       # facts of the table afterwards (dotted paths)
    said: [2 blocked]                # phrases the answer must contain (rules included)
    refused: [already]               # instead of then/said: the last 'when' is refused, saying this

:func:`run` returns what did not hold; an empty list is a pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import AssistantError


@dataclass(frozen=True)
class GameRules:
    parse_table: Callable[[str, str], Any]
    apply: Callable[[Any, str], Any]
    lookup: Callable[[Any, str], Any]


def games() -> dict[str, GameRules]:
    from ..destiny import engine as de
    from ..destiny.table import parse_table as dparse

    from ..swtcg import engine as se
    from ..swtcg.table import parse_table as sparse

    return {"destiny": GameRules(dparse, de.apply, de.lookup), "swtcg": GameRules(sparse, se.apply, se.lookup)}


def _as_list(v: Any) -> list[Any]:
    return [] if v is None else v if isinstance(v, list) else [v]


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, (list, tuple)) and [str(g) for g in got] == [str(w) for w in want]
    if isinstance(want, bool) or want is None:
        return got == want
    if isinstance(want, int):
        return got == want
    return str(got) == str(want)


def run(spec: dict[str, Any], here: Path) -> list[str]:
    if spec["game"] == "destiny-building":
        return _run_building(spec)
    rules = games()[spec["game"]]
    table_spec = spec["table"]
    text = (here / table_spec).read_text(encoding="utf-8") if isinstance(table_spec, str) else _dump(table_spec)
    table = rules.parse_table(text, str(table_spec) if isinstance(table_spec, str) else "inline table")
    failures: list[str] = []
    for cmd in _as_list(spec.get("given")):
        table = rules.apply(table, cmd).table  # a premise that fails is a broken scenario: let it raise
    said: list[str] = []
    whens = _as_list(spec.get("when"))
    refused_want = _as_list(spec.get("refused"))
    for i, cmd in enumerate(whens):
        last = i == len(whens) - 1
        try:
            out = rules.apply(table, cmd)
        except AssistantError as e:
            if last and refused_want:
                msg = str(e)
                failures += [f"refusal of {cmd!r} does not say {w!r}: {msg}" for w in refused_want if str(w).lower() not in msg.lower()]
                return failures
            return failures + [f"{cmd!r} was refused: {e}"]
        table, said = out.table, said + list(out.said)
    if refused_want:
        failures.append(f"{whens[-1]!r} was accepted, expected a refusal saying {refused_want}; it said: {said}")
    text_said = "\n".join(said).lower()
    for w in _as_list(spec.get("said")):
        if str(w).lower() not in text_said:
            failures.append(f"the answer does not say {w!r}; it said:\n  " + "\n  ".join(said))
    for path, want in (spec.get("then") or {}).items():
        try:
            got = rules.lookup(table, path)
        except AssistantError as e:
            failures.append(f"{path}: {e}")
            continue
        if not _same(got, want):
            failures.append(f"{path}: expected {want!r}, got {got!r}")
    return failures


def _dump(data: Any) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False)


def _run_building(spec: dict[str, Any]) -> list[str]:
    """Team and deck building (Destiny P4): ``team`` and optionally ``deck`` (each entry with
    ``copies``), then ``problems: []`` for legal or ``problems_say`` phrases."""
    from ..destiny.building import DeckCard, TeamCharacter, check_deck, check_team

    team = [TeamCharacter(**c) for c in spec["team"]]
    problems = check_team(team)
    if "deck" in spec:
        deck = [DeckCard(**{k: v for k, v in c.items() if k != "copies"}) for c in spec["deck"] for _ in range(c.get("copies", 1))]
        problems += check_deck(team, deck)
    if "problems" in spec and problems != spec["problems"]:
        return [f"expected problems {spec['problems']!r}, got {problems!r}"]
    text = "\n".join(problems).lower()
    return [f"no problem says {w!r}; problems: {problems!r}" for w in spec.get("problems_say", []) if str(w).lower() not in text]
