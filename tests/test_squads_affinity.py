"""Affinity in the squad check at ``game new`` (swm2008 PL p.33; reading R166).

> PL p.33: "Affinity – Przynależność: Postać ta może należeć do określonej drużyny nawet, jeśli należy
> do innej frakcji. Frakcja tej postaci jest w takim przypadku uważana za taką samą jak frakcja danej
> drużyny. Na przykład Mas Amedda należeć będzie do Imperium, jeśli należy do Imperialnej drużyny."

The bundled Mas Amedda (Champions of the Force #30, Republic, Affinity: the Empire) and figures written
here, each checked in a squad it may join by Affinity and in one it may not.
"""

from __future__ import annotations

from assistant.cards import CardLibrary, SwmCard, default_library
from assistant.game.squads import check_squads
from assistant.position import parse_position


def _card(name: str, *factions: str, abilities: tuple[str, ...] = (), affinity: tuple[str, ...] | None = ()) -> SwmCard:
    return SwmCard(name=name, source="test", cost=10, factions=factions, unique=False, size=None, hp=10, defense=10,
                   attack=1, damage=10, speed=6, force=0, special_abilities=abilities, affinity=affinity)


LIB = CardLibrary(default_library().cards() + [
    _card("Sith Acolyte", "Sith"), _card("Stormtrooper Test", "Imperial"), _card("Vong Warrior", "Yuuzhan Vong"),
    _card("Wandering Jedi", "Old Republic", abilities=("Affinity",), affinity=None),
])


def check(rules: str, *figures: tuple[str, str]) -> tuple[list[str], list[str]]:
    lines = "".join(f"  - {{id: f{i}, card: {card}, side: {side}, at: A{i + 1}}}\n" for i, (card, side) in enumerate(figures))
    problems, unchecked = check_squads(parse_position(f"format: tabletop-position/1\nrules: {rules}\nmap: {{cols: 8, rows: 8}}\nfigures:\n{lines}",
                                                      "t.yaml", LIB))
    return [f"{p.text} [{p.rule}]" for p in problems], unchecked


def test_mas_amedda_joins_an_imperial_squad_by_affinity() -> None:
    mas = ("Mas Amedda", "dark")
    assert check("swm2008", mas, ("Stormtrooper Test", "dark")) == ([], [])  # the rulebook's own example
    # an era whose dark side fields the Empire beside another faction (Rise of the Empire: Separatists, Empire)
    assert check("swm2008", mas, ("Count Dooku of Serenno", "dark"))[0] == []
    # ... and still his own Republic's squad
    assert check("swm2008", ("Mas Amedda", "light"), ("General Obi-Wan Kenobi", "light"))[0] == []


def test_affinity_does_not_open_a_squad_the_card_does_not_name() -> None:
    # the Old Republic era's dark side is the Sith and the Mandalorians: no Empire, no Republic
    assert check("swm2008", ("Mas Amedda", "dark"), ("Sith Acolyte", "dark"))[0] == [
        "dark's factions Republic, Sith fit no era's side [swm2008 PL p.15]"]
    assert check("swm2008", ("Mas Amedda", "dark"), ("Vong Warrior", "dark"))[0] == [
        "dark's factions Republic, Yuuzhan Vong fit no era's side [swm2008 PL p.15]"]


def test_swm2004_has_no_affinity() -> None:
    assert check("swm2004", ("Mas Amedda", "dark"), ("Stormtrooper Test", "dark"))[0] == [
        "f0 (Mas Amedda) is of the Republic, not a faction of the dark side (nor Fringe) [swm2004 CS r.4]"]


def test_an_affinity_whose_faction_is_unknown_is_not_checked_nor_refused() -> None:
    problems, unchecked = check("swm2008", ("Wandering Jedi", "dark"), ("Vong Warrior", "dark"))
    assert problems == []
    assert unchecked == [
        "f0 (Wandering Jedi): side not checked (the card has Affinity; the faction it may join is unknown)",
        "dark: factions not fully checked (the faction that f0 may join by Affinity is unknown)",
    ]
