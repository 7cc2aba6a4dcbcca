"""Order 66 (round 23): the targeting and the squad, golden cases from the seeds (reading R230).

> swm2008 PL p.56: "Order 66 – Rozkaz 66: Postać z tą umiejętnością specjalną może być w drużynie z
> Emperor Palpatine, Sith Lord niezależnie od frakcji. Postacie z wcześniejszych dodatków zawierające
> w nazwie słowa „ARC Trooper” lub „Clone Trooper” także traktowani są jako posiadające Rozkaz 66
> nawet, jeśli nie mają tak napisane na karcie postaci."
> swm2008 PL p.42: "Execute Order 66 – Wykonać Rozkaz 66: Postać ta nie może być celem ataku postaci z
> umiejętnością specjalną Rozkaz 66."
> swm2004 CS g.10: "Order 66: Postava s touto speciální schopností může být ve skupině s Emperorem
> Palpatinem, Sith Lordem, bez ohledu na příslušnost ke straně. Postavy z předchozích setů, jejichž
> jména obsahují slovo "Clone Trooper" mají také vlastnost Order 66"; CS g.5 Execute Order 66 alike.

SW_Minis_Drafter's database gives Order 66 to 46 figures (all Republic), reported "not modelled" before,
and Execute Order 66 to Emperor Palpatine, Sith Lord (Revenge of the Sith, Imperial).
"""

from __future__ import annotations

from assistant.cards import CardLibrary, SwmCard, default_library
from assistant.game.squads import check_squads
from assistant.position import parse_position
from assistant.rules.attack import attack


def _card(name: str, faction: str, *abilities: str) -> SwmCard:
    return SwmCard(name=name, source="test", cost=10, factions=(faction,), unique=False, size=None, hp=10, defense=10,
                   attack=8, damage=10, speed=6, force=0, special_abilities=abilities)


LIB = CardLibrary(default_library().cards() + [
    _card("Emperor Palpatine, Sith Lord", "Imperial", "Unique", "Execute Order 66"),
    _card("Clone Trooper Gunner", "Republic"),  # Order 66 by its name alone
    _card("ARC Trooper Test", "Republic"),
    _card("Elite Clone Test", "Republic", "Order 66"),
    _card("Republic Commando Test", "Republic"),  # no Order 66
    _card("Stormtrooper Test", "Imperial"),
])


def position(rules: str, *figures: tuple[str, str]):
    lines = "".join(f"  - {{id: f{i}, card: \"{card}\", side: {side}, at: C{i + 2}}}\n" for i, (card, side) in enumerate(figures))
    return parse_position(f"format: tabletop-position/1\nrules: {rules}\nmap: {{cols: 8, rows: 8}}\nfigures:\n{lines}", "t.yaml", LIB)


def order_66_refusal(rules: str, attacker: str) -> bool:
    p = position(rules, ("Emperor Palpatine, Sith Lord", "dark"), (attacker, "light"))
    return any("Execute Order 66" in r.text for r in attack(p, "f1", "f0").illegal_reasons)


def test_execute_order_66_stops_order_66_by_ability_or_by_name() -> None:
    """PL p.42, p.56: the ability, or "Clone Trooper"/"ARC Trooper" in the name (2008); the 2004 rules
    name only "Clone Trooper". A character with neither may attack him."""
    for rules, arc in (("swm2008", True), ("swm2004", False)):
        assert order_66_refusal(rules, "Elite Clone Test")
        assert order_66_refusal(rules, "Clone Trooper Gunner")
        assert order_66_refusal(rules, "ARC Trooper Test") is arc
        assert not order_66_refusal(rules, "Republic Commando Test")


def squad(rules: str, *cards: str) -> list[str]:
    problems, _unchecked = check_squads(position(rules, *((c, "dark") for c in cards)))
    return [p.text for p in problems]


def test_order_66_joins_emperor_palpatine_sith_lords_squad_whatever_its_faction() -> None:
    """PL p.56; CS g.10: in a squad with Emperor Palpatine, Sith Lord the Republic's Order 66 figures
    may serve the dark side; without him, or without Order 66, the faction rule stands (PL p.14-15;
    CS r.4)."""
    for rules in ("swm2008", "swm2004"):
        assert squad(rules, "Emperor Palpatine, Sith Lord", "Elite Clone Test", "Clone Trooper Gunner", "Stormtrooper Test") == []
        assert any("Republic Commando Test" in p for p in squad(rules, "Emperor Palpatine, Sith Lord", "Republic Commando Test"))
        assert any("Elite Clone Test" in p for p in squad(rules, "Stormtrooper Test", "Elite Clone Test"))
